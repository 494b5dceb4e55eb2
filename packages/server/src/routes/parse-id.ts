/** Largest id an `integer` column holds on both SQLite and PostgreSQL. */
const MAX_ID = 2_147_483_647;

/**
 * A positive integer id from a URL segment, in its one canonical spelling (`7`, not `07` or `+7`), or
 * undefined. Anything else (negative, huge, `..`, encoded slashes) is simply not an id: a 404, never
 * a database error or a path.
 */
export function parseId(raw: string | undefined): number | undefined {
  if (raw === undefined || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= MAX_ID ? id : undefined;
}

/** An id in a URL: a positive integer in its one spelling, as parseId takes it. */
const ID_PATTERN = '[1-9][0-9]{0,9}';

/**
 * A route path whose `:param`s match ids only (`/news/:id` → `/news/:id(^[1-9][0-9]{0,9}$)`): any other
 * segment is not a resource at all, so it is a 404 for every method, never a 405.
 */
export const withIdParams = (path: string): string => path.replace(/:(\w+)/g, `:$1(^${ID_PATTERN}$)`);
