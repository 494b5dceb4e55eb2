import { setTimeout as sleep } from 'node:timers/promises';
import {
  CompiledQuery,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type SqliteDialectConfig,
} from 'kysely';

/** SQLite's own wait for a lock (`busy_timeout`), for every statement but a transaction's start. */
export const BUSY_TIMEOUT_MS = 5000;
/** How long a start waits for another instance's migrations before it gives up. */
const MIGRATIONS_WAIT_MS = 60_000;
/** The longest pause between two tries; the first is 1 ms, each next one twice as long. */
const MAX_PAUSE_MS = 20;

/**
 * `BEGIN IMMEDIATE`: a transaction that holds SQLite's write lock from its first statement. A
 * deferred `BEGIN` takes it at the first write, after the reads: when another instance on the same
 * file holds it then, or has committed since those reads, SQLite refuses that write at once
 * (SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT) without its busy timeout, as waiting could deadlock.
 *
 * Waiting for another connection's lock is done here, between tries, not by SQLite's busy timeout:
 * that one blocks the whole thread (better-sqlite3 is synchronous), and the lock's holder may be
 * another app in this very process (tests start several at once), which could then never finish and
 * let go. Gives up with SQLITE_BUSY (503, plugins/app/errors.ts) after `waitMs`.
 */
async function takeWriteLock(run: (statement: string) => Promise<unknown>, waitMs: number): Promise<void> {
  await run('pragma busy_timeout = 0');
  try {
    const deadline = Date.now() + waitMs;
    for (let pause = 1; ; pause = Math.min(2 * pause, MAX_PAUSE_MS)) {
      try {
        await run('begin immediate');
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      }
      await sleep(pause);
    }
  } finally {
    await run(`pragma busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
}

/** The migrations' transaction (db/migrate.ts), begun by hand on `db`'s one connection. */
export function beginImmediate(db: Kysely<unknown>): Promise<void> {
  return takeWriteLock((statement) => sql.raw(statement).execute(db), MIGRATIONS_WAIT_MS);
}

/** Kysely's SQLite driver, every transaction begun with the write lock (all of ours write). */
class WriteLockingDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await takeWriteLock((statement) => connection.executeQuery(CompiledQuery.raw(statement)), BUSY_TIMEOUT_MS);
  }
}

/**
 * Kysely's SQLite dialect with WriteLockingDriver: several instances may share one DATA_DIR (README,
 * "Configuration"), and with deferred transactions two of them writing at once answered 500 and 503
 * (test/reliability/two-instances.test.ts).
 */
export class WriteLockingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new WriteLockingDriver(this.#config);
  }
}
