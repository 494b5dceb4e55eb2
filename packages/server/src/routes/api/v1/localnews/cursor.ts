import type { NewsPosition } from '../../../../repositories/news.js';
import { parseId } from '../../../parse-id.js';

/**
 * The list's `before` cursor: the last item of a page (its `created_at` and id), base64url-encoded so
 * that clients treat it as opaque and never build one. Anything that does not decode to exactly what
 * `encodeCursor` makes is not a cursor.
 */
export const encodeCursor = (position: NewsPosition): string =>
  Buffer.from(`${position.id}.${position.createdAt}`).toString('base64url');

export function decodeCursor(cursor: string): NewsPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  // created_at is an ISO 8601 UTC timestamp, as every row stores it (db/schema.ts).
  const match = /^([1-9]\d{0,9})\.(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z)$/.exec(
    Buffer.from(cursor, 'base64url').toString('latin1'),
  );
  // An id past what an `integer` column holds is no item's: PostgreSQL would refuse the query.
  const id = match && parseId(match[1]);
  if (!id || !isRealTime(match[2]!)) return undefined;
  const position = { id, createdAt: match[2]! };
  // One spelling per position: a cursor with stray bits or padding is refused, not read loosely.
  return encodeCursor(position) === cursor ? position : undefined;
}

/** A time that exists (no 13th month, 30 February or hour 24): it reads back as written, to the second. */
function isRealTime(iso: string): boolean {
  const ms = Date.parse(iso);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === iso.slice(0, 19);
}
