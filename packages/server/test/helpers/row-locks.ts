import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../src/db/schema.js';

/** How many statements of this PostgreSQL database wait for a lock just now. */
export async function statementsWaitingForLocks(db: Kysely<Database>): Promise<number> {
  const { rows } = await sql<{ n: unknown }>`
    select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'
  `.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Holds the row locks `lock` takes in a transaction of its own until `release()`, so that a test can
 * line calls up behind them in a chosen order. `taken` resolves once they are held; `done` once the
 * transaction has ended.
 */
export function holdRowLocks(db: Kysely<Database>, lock: (trx: Transaction<Database>) => Promise<unknown>) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const taken = new Promise<void>((resolve) => (locked = resolve));
  const done = db.transaction().execute(async (trx) => {
    await lock(trx);
    locked();
    await held;
  });
  return { taken: Promise.race([taken, done]), done, release };
}
