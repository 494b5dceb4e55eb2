import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * A database of its own in the run's PostgreSQL server, for a server spawned as a child process
 * (buildTestApp makes one for in-process apps).
 */
export async function createPgDatabase(
  adminUrl = inject('pgAdminUrl'),
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!adminUrl) throw new Error('PostgreSQL was not started for this run (TEST_DIALECTS excludes it)');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = async (query: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
