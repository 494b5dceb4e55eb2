import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';

/** How long a start waits for another instance's migrations before it gives up. */
const WAIT_MS = 60_000;
const RETRY_MS = 20;

/**
 * `BEGIN IMMEDIATE`: a transaction that holds SQLite's write lock from its first statement. Waiting
 * for another connection's lock is done here, between tries, not by SQLite's busy timeout: that one
 * blocks the whole thread (better-sqlite3 is synchronous), and the lock's holder may be another app
 * in this very process (tests start several at once), which could then never finish and let go.
 */
export async function beginImmediate(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ timeout: number }>`pragma busy_timeout`.execute(db);
  await sql`pragma busy_timeout = 0`.execute(db);
  try {
    for (const deadline = Date.now() + WAIT_MS; ; await sleep(RETRY_MS)) {
      try {
        await sql`begin immediate`.execute(db);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
      }
    }
  } finally {
    await sql`pragma busy_timeout = ${sql.lit(rows[0]?.timeout ?? 5000)}`.execute(db);
  }
}
