import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A probe's answer may not wait on a database that hangs (PostgreSQL frozen, a network partition). */
export const PROBE_TIMEOUT_MS = 2000;

/**
 * `work`'s outcome, or a rejection once `ms` have passed. The work itself goes on (a query cannot be
 * called back); its late outcome is ignored.
 */
export function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * True when the database answers `select 1` within `timeoutMs`. Migrations need no check of their own:
 * buildApp runs them to the end before the app exists, so an app that answers has its schema.
 */
export async function databaseAnswers(db: Kysely<Database>, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    await within(sql`select 1`.execute(db), timeoutMs);
    return true;
  } catch {
    return false;
  }
}
