import type { Kysely } from 'kysely';
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
 * True when the database answers, within `timeoutMs`, a read of a table the migrations made (its one
 * row, `store_identity`): `select 1` touches no table, and on SQLite not even the file, so it would
 * pass over a file that cannot be read or a schema that is not this one. buildApp runs the migrations
 * to the end before the app exists; this also sees one undone or a database swapped under it.
 */
export async function databaseAnswers(db: Kysely<Database>, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  try {
    const row = await within(
      db.selectFrom('store_identity').select('id').where('id', '=', 1).executeTakeFirst(),
      timeoutMs,
    );
    return row !== undefined;
  } catch {
    return false;
  }
}
