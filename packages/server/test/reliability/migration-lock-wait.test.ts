import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { dialects } from '../helpers/build.js';
import { createPgDatabase } from '../helpers/pg-database.js';

/** Kysely's migration lock on PostgreSQL (its PostgresAdapter), taken by every instance that starts. */
const MIGRATION_LOCK = '3853314791062309107';
const OTHER_LOCK = '4242';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Request queries on PostgreSQL give up after 5 s (src/db/database.ts); the migrations run at start must
 * not: a second instance waits for the migration lock as long as the first migrates (an index built on
 * a large table takes minutes), then finds nothing left to run.
 */
describe.runIf(dialects.includes('postgres'))('migrations on PostgreSQL without the query timeout', () => {
  it('a start that waits over 5 s for the migration lock still succeeds; a request query still gives up', async () => {
    const database = await createPgDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-migration-lock-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://app.test',
      DATABASE_URL: database.url,
    });
    // Another instance, migrating: it holds the lock.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    const request = openDatabase(config);
    let app: Awaited<ReturnType<typeof buildApp>> | undefined;
    try {
      await other.query(`select pg_advisory_lock(${MIGRATION_LOCK}), pg_advisory_lock(${OTHER_LOCK})`);
      const started = Date.now();
      const starting = buildApp(config).then(
        (built) => ({ built, error: undefined }),
        (error: unknown) => ({ built: undefined, error }),
      );
      // A request's query waiting as long on a lock is cut off at 5 s, as before.
      const waited = sql`select pg_advisory_lock(${sql.raw(OTHER_LOCK)})`.execute(request.db).then(
        () => 'took the lock',
        (error: Error) => error.message,
      );
      await pause(6500);
      expect(await waited).toMatch(/timeout/i);
      await other.query(`select pg_advisory_unlock(${MIGRATION_LOCK})`);

      const { built, error } = await starting;
      expect(error).toBeUndefined();
      app = built;
      expect(Date.now() - started).toBeGreaterThan(6000);
      const ran = await sql<{ n: string }>`select count(*) as n from kysely_migration`.execute(app!.db);
      expect(Number(ran.rows[0]!.n)).toBeGreaterThan(0);
      expect((await app!.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await app?.close();
      await request.close();
      await other.end();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
