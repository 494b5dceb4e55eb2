// @ts-check
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres } from '../postgres.js';

/** @import { PostgresCluster } from '../postgres.js' */

/**
 * @param {string} url
 * @param {string} sql
 * @param {unknown[]} [params]
 */
async function query(url, sql, params = []) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

describe('startPostgres', () => {
  /** @type {PostgresCluster} */
  let pgc;
  beforeAll(async () => {
    pgc = await startPostgres();
    console.log(
      `postgres started in ${pgc.timings.totalMs} ms (template ${pgc.timings.templateMs} ms, server ${pgc.timings.startMs} ms)`,
    );
  });
  afterAll(async () => {
    await pgc?.stop();
  });

  it('serves the test database on 127.0.0.1 with fsync on', async () => {
    expect(pgc.url).toBe(`postgres://postgres@127.0.0.1:${pgc.port}/test`);
    const [row] = await query(
      pgc.url,
      'SELECT current_database() AS db, current_setting($1) AS fsync, inet_server_addr()::text AS addr',
      ['fsync'],
    );
    expect(row).toEqual({ db: 'test', fsync: 'on', addr: '127.0.0.1/32' });
  });

  it('creates and drops databases, even with sessions open', async () => {
    const url = await pgc.createDatabase('suite_a');
    await query(url, 'CREATE TABLE t (x int)');
    const open = new pg.Client({ connectionString: url });
    await open.connect();
    open.on('error', () => {}); // dropDatabase ends this session on purpose
    await pgc.dropDatabase('suite_a');
    const names = (await query(pgc.adminUrl, 'SELECT datname FROM pg_database')).map((r) => r.datname);
    expect(names).not.toContain('suite_a');
    await open.end().catch(() => {});
    await expect(pgc.createDatabase('Robert"); DROP')).rejects.toThrow(/not a plain database name/);
  });

  it('keeps committed rows across a stop and start on the same port', async () => {
    await query(pgc.url, 'CREATE TABLE kept (id int PRIMARY KEY)');
    await query(pgc.url, 'INSERT INTO kept VALUES (1), (2)');
    await pgc.stop({ keepData: true });
    expect(pgc.running).toBe(false);
    await expect(query(pgc.url, 'SELECT 1')).rejects.toThrow(/ECONNREFUSED/);
    await pgc.start();
    expect(pgc.running).toBe(true);
    expect(await query(pgc.url, 'SELECT count(*)::int AS n FROM kept')).toEqual([{ n: 2 }]);
  });

  it('recovers every committed row after kill(), a crash of every process', async () => {
    await query(pgc.url, 'CREATE TABLE crash (id int)');
    await query(pgc.url, 'INSERT INTO crash SELECT generate_series(1, 1000)');
    const doomed = new pg.Client({ connectionString: pgc.url });
    await doomed.connect();
    doomed.on('error', () => {});
    await doomed.query('BEGIN');
    await doomed.query('INSERT INTO crash VALUES (-1)'); // never committed
    await pgc.kill();
    expect(pgc.running).toBe(false);
    await pgc.start();
    expect(await query(pgc.url, 'SELECT count(*)::int AS n, min(id) AS lo FROM crash')).toEqual([{ n: 1000, lo: 1 }]);
    await doomed.end().catch(() => {});
  });

  it('pause() makes queries hang and resume() lets them finish', async () => {
    const client = new pg.Client({ connectionString: pgc.url });
    await client.connect();
    try {
      pgc.pause();
      const pending = client.query('SELECT 42 AS answer');
      const raced = await Promise.race([pending, new Promise((resolve) => setTimeout(() => resolve('hung'), 300))]);
      expect(raced).toBe('hung');
      pgc.resume();
      expect((await pending).rows).toEqual([{ answer: 42 }]);
    } finally {
      pgc.resume();
      await client.end();
    }
  });

  it('stop() removes the data directory, promptly even when paused', async () => {
    const other = await startPostgres();
    expect(existsSync(other.dataDir)).toBe(true);
    other.pause();
    const t0 = performance.now();
    await other.stop();
    expect(performance.now() - t0).toBeLessThan(10_000); // the SIGKILL fallback waits 15 s
    expect(existsSync(other.dataDir)).toBe(false);
    await expect(other.start()).rejects.toThrow(/removed/);
  });
});
