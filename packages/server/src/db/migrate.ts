import { Migrator, SqliteAdapter, sql, type Kysely, type Migration } from 'kysely';
import * as initial from './migrations/2026-11-22-001-initial.js';
import * as mailOutboxFailedAt from './migrations/2026-11-22-002-mail-outbox-failed-at.js';
import * as newsRevision from './migrations/2026-11-22-003-news-revision.js';
import * as retentionIndexes from './migrations/2026-11-25-004-retention-indexes.js';
import * as accountCenter from './migrations/2026-11-25-005-account-center.js';
import * as twoStepSignIn from './migrations/2026-11-25-006-two-step-sign-in.js';
import * as emailAsciiDomains from './migrations/2026-11-27-007-email-ascii-domains.js';
import * as storeIdentity from './migrations/2026-11-28-008-store-identity.js';
import { beginImmediate } from './sqlite-write-lock.js';

/** Every migration, in order. Names are frozen once shipped. */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-22-002-mail-outbox-failed-at': mailOutboxFailedAt,
  '2026-11-22-003-news-revision': newsRevision,
  '2026-11-25-004-retention-indexes': retentionIndexes,
  '2026-11-25-005-account-center': accountCenter,
  '2026-11-25-006-two-step-sign-in': twoStepSignIn,
  '2026-11-27-007-email-ascii-domains': emailAsciiDomains,
  '2026-11-28-008-store-identity': storeIdentity,
};

/**
 * Brings the schema up to date; safe to run on every start and from several instances at once.
 *
 * On PostgreSQL Kysely's migrator takes an advisory lock. On SQLite it takes none: each instance
 * reads which migrations ran, then runs the others, in a transaction that takes the write lock only
 * at its first write, so two first starts at once both create the tables and one fails ("table
 * users already exists"; test/reliability/concurrent-start.test.ts). There, when a migration is
 * due, the whole run is one transaction that holds the write lock before it reads
 * (sqlite-write-lock.ts): the second instance waits for it, then finds nothing left to run.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const provider = { getMigrations: async () => migrations };
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return run(new Migrator({ db, provider }));
  // One connection (Kysely's SQLite driver has no other), so the migrator's statements run in ours.
  const migrator = new Migrator({ db, provider, disableTransactions: true });
  // The usual start has nothing to run, and takes no lock for it.
  if ((await migrator.getMigrations()).every((migration) => migration.executedAt)) return [];
  await beginImmediate(db);
  try {
    const ran = await run(migrator);
    await sql`commit`.execute(db);
    return ran;
  } catch (error) {
    // The lock is let go on every path; a rollback that fails (SQLite already ended the transaction)
    // must not hide why the run failed.
    await sql`rollback`.execute(db).catch(() => {});
    throw error;
  }
}

async function run(migrator: Migrator): Promise<string[]> {
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
