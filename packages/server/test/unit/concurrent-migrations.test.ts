import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { sqliteConnections } from '../helpers/sqlite-connections.js';

/**
 * Migrations from several instances at once on one SQLite file (db/migrate.ts). Here the instances are
 * connections in one process, the hardest case for the wait for the write lock: SQLite's own busy wait
 * blocks the one thread the lock's holder needs to finish, so the waiter fails with "database is
 * locked" after the busy timeout (db/sqlite-write-lock.ts). Several processes:
 * test/reliability/concurrent-start.test.ts.
 */
describe('migrations of one SQLite file from several connections at once', () => {
  const connections = sqliteConnections('hello-migrate-');
  const open = () => connections.open();
  afterAll(() => connections.close());

  it('runs them once on a fresh file: one connection runs them all, the others wait and find none left', async () => {
    const dbs = [open(), open(), open(), open()];
    const ran = await Promise.all(dbs.map((db) => migrateToLatest(db)));
    const counts = ran.map((names) => names.length).sort();
    expect(counts.slice(0, 3)).toEqual([0, 0, 0]);
    expect(counts[3]).toBeGreaterThan(0);
    // SQLite's busy timeout is back to what database.ts set once the lock is taken.
    for (const db of dbs)
      expect((await sql<{ timeout: number }>`pragma busy_timeout`.execute(db)).rows[0]!.timeout).toBe(5000);
  });

  it('takes no lock when nothing is due: a start succeeds while another connection writes', async () => {
    const writer = open();
    await sql`begin immediate`.execute(writer);
    try {
      expect(await migrateToLatest(open())).toEqual([]);
    } finally {
      await sql`rollback`.execute(writer);
    }
  });
});
