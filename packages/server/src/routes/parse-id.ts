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
