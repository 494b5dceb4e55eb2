import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Dialects every API suite runs over. */
    dialects: ('sqlite' | 'postgres')[];
    /** Admin URL of the throwaway PostgreSQL server this run started. */
    pgAdminUrl: string;
  }
}

const KNOWN_DIALECTS = ['sqlite', 'postgres'] as const;
export type TestDialect = (typeof KNOWN_DIALECTS)[number];

/** CI counts as set unless the variable is unset, empty, `0` or `false` (any letter case). */
const ciIsSet = (value: string | undefined) =>
  value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());

/**
 * The dialects of this run, from `TEST_DIALECTS` (a comma-separated list of `sqlite` and `postgres`;
 * unset or empty: both). A name that is neither is refused, rather than running suites over a dialect
 * nobody has; and with `CI` set, a list without `postgres` is refused: CI always runs both.
 */
export function testDialects(env: NodeJS.ProcessEnv = process.env): TestDialect[] {
  const raw = env.TEST_DIALECTS?.trim() ? env.TEST_DIALECTS : undefined;
  const names = (raw ?? KNOWN_DIALECTS.join(',')).split(',').map((d) => d.trim());
  const unknown = names.filter((name) => !(KNOWN_DIALECTS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new Error(
      `TEST_DIALECTS=${JSON.stringify(raw)} names ${unknown.map((n) => JSON.stringify(n)).join(', ')}: ` +
        `expected a comma-separated list of ${KNOWN_DIALECTS.join(', ')} (unset: both)`,
    );
  const dialects = [...new Set(names)] as TestDialect[];
  if (ciIsSet(env.CI) && !dialects.includes('postgres'))
    throw new Error(
      `TEST_DIALECTS=${JSON.stringify(raw)} leaves PostgreSQL out, but CI is set (CI=${JSON.stringify(env.CI)}): ` +
        'CI runs every server suite on both databases; unset TEST_DIALECTS',
    );
  return dialects;
}

/**
 * Starts one real PostgreSQL server for the whole run; each suite makes its own database in it.
 * `TEST_DIALECTS=sqlite` runs SQLite only (for a quick local loop; CI always runs both).
 */
export default async function setup(project: TestProject) {
  const dialects = testDialects();
  project.provide('dialects', dialects);
  project.provide('pgAdminUrl', '');
  if (!dialects.includes('postgres')) return;
  const { startPostgres } = await import('@hello/testkit');
  const pg = await startPostgres();
  project.provide('pgAdminUrl', pg.adminUrl ?? pg.url);
  return async () => pg.stop();
}
