import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Dialects every API suite runs over. */
    dialects: ('sqlite' | 'postgres')[];
    /** Admin URL of the throwaway PostgreSQL server this run started. */
    pgAdminUrl: string;
  }
}

/**
 * Starts one real PostgreSQL server for the whole run; each suite makes its own database in it.
 * `TEST_DIALECTS=sqlite` runs SQLite only (for a quick local loop; CI always runs both).
 */
export default async function setup(project: TestProject) {
  const dialects = (process.env.TEST_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim()) as (
    'sqlite' | 'postgres'
  )[];
  project.provide('dialects', dialects);
  project.provide('pgAdminUrl', '');
  if (!dialects.includes('postgres')) return;
  const { startPostgres } = await import('@hello/testkit');
  const pg = await startPostgres();
  project.provide('pgAdminUrl', pg.adminUrl ?? pg.url);
  return async () => pg.stop();
}
