import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteConnections } from '../helpers/sqlite-connections.js';

/**
 * Transactions on one SQLite file from two connections at once, as two instances sharing a DATA_DIR
 * make them (db/sqlite-write-lock.ts). Both connections are in this process, so a wait that blocked
 * the thread would keep the other transaction from ever finishing.
 */
describe('transactions of one SQLite file from two connections at once', () => {
  const connections = sqliteConnections('hello-write-lock-');
  const open = () => connections.open();
  afterAll(() => connections.close());

  it('runs a transaction that reads, then writes, while another waits for it without blocking: both commit, no write is lost', async () => {
    const [one, other] = [open(), open()];
    await sql`create table counter (n integer not null)`.execute(one);
    await sql`insert into counter (n) values (0)`.execute(one);
    const add =
      (amount: number, between: () => Promise<void> = async () => {}) =>
      async (trx: typeof one) => {
        const { rows } = await sql<{ n: number }>`select n from counter`.execute(trx);
        await between();
        await sql`update counter set n = ${rows[0]!.n + amount}`.execute(trx);
      };

    let hasRead!: () => void;
    const read = new Promise<void>((resolve) => (hasRead = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = one.transaction().execute(add(1, () => (hasRead(), held)));
    await read;

    let secondCommitted = false;
    const second = other
      .transaction()
      .execute(add(10))
      .then(() => (secondCommitted = true));
    // The first holds the write lock from its start, reads included: the second waits for it. (With a
    // deferred BEGIN the second committed here, and the first's write was then refused,
    // SQLITE_BUSY_SNAPSHOT.)
    await sleep(100);
    expect(secondCommitted).toBe(false);
    release();
    await Promise.all([first, second]);

    expect((await sql<{ n: number }>`select n from counter`.execute(other)).rows[0]!.n).toBe(11);
    // SQLite's own busy timeout is back on both connections for the statements outside transactions.
    for (const db of [one, other])
      expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows[0]!.timeout).toBe(5000);
  });
});
