import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';

export type Dialect = 'sqlite' | 'postgres';

/** The dialects this run covers: `describe.each(dialects)(...)` runs a suite over each. */
export const dialects: Dialect[] = inject('dialects');

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  dataDir: string;
  /** Builds a second app on the same data (a restart). */
  restart(): Promise<TestApp['app']>;
  close(): Promise<void>;
}

/** A fresh database of its own in the run's PostgreSQL server. */
async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) throw new Error('PostgreSQL was not started for this run (TEST_DIALECTS excludes it)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * Builds the app on a fresh DATA_DIR (and a fresh PostgreSQL database for `postgres`).
 * Hashing is cheaper than production's so suites stay fast; the security suite checks the defaults.
 */
export async function buildTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-test-'));
  const database = dialect === 'postgres' ? await createPgDatabase() : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://app.test',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  let app = await buildApp(config, options);
  return {
    get app() {
      return app;
    },
    config,
    dataDir,
    async restart() {
      await app.close();
      app = await buildApp(config, options);
      return app;
    },
    async close() {
      await app.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
