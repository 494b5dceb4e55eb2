import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/**
 * Counts one hit on `key` in the fixed window starting at `windowStart` (epoch seconds) and answers
 * the count. One upsert statement, atomic on SQLite and PostgreSQL alike, so concurrent requests and
 * several server instances never lose a hit. A row from an older window starts over at 1; a row from
 * a newer window (another instance's clock runs ahead) is counted in, never set back.
 */
export async function hit(db: Db, key: string, windowStart: number): Promise<{ hits: number; windowStart: number }> {
  const newer = sql<boolean>`rate_limits.window_start >= excluded.window_start`;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, hits: 1 })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        hits: sql<number>`CASE WHEN ${newer} THEN rate_limits.hits + 1 ELSE 1 END`,
        window_start: sql<number>`CASE WHEN ${newer} THEN rate_limits.window_start ELSE excluded.window_start END`,
      }),
    )
    .returning(['hits', 'window_start'])
    .executeTakeFirstOrThrow();
  return { hits: Number(row.hits), windowStart: Number(row.window_start) };
}

/** Takes one hit back (a login that turned out to succeed), if its window is still the current one. */
export async function unhit(db: Db, key: string, windowStart: number): Promise<void> {
  await db
    .updateTable('rate_limits')
    .set({ hits: sql<number>`hits - 1` })
    .where('key', '=', key)
    .where('window_start', '=', windowStart)
    .where('hits', '>', 0)
    .execute();
}

/** Deletes counters whose window started before `before` (epoch seconds): they count nothing any more. */
export async function pruneBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_start', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
