import { Migrator, type Kysely, type Migration } from 'kysely';
import * as initial from './migrations/2026-11-22-001-initial.js';
import * as mailOutboxFailedAt from './migrations/2026-11-22-002-mail-outbox-failed-at.js';
import * as newsRevision from './migrations/2026-11-22-003-news-revision.js';

/** Every migration, in order. Names are frozen once shipped. */
const migrations: Record<string, Migration> = {
  '2026-11-22-001-initial': initial,
  '2026-11-22-002-mail-outbox-failed-at': mailOutboxFailedAt,
  '2026-11-22-003-news-revision': newsRevision,
};

/** Brings the schema up to date; safe to run on every start and from several instances at once. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
