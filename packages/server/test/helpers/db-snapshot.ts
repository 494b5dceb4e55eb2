import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * A fingerprint of every row of every table of the app (not only row counts: an UPDATE that a
 * failed call left behind changes it too). One round trip, so it can run around each of thousands
 * of calls. Kysely's own migration tables are left out.
 */
export interface DbSnapshot {
  (): Promise<string>;
  tables: string[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks every table, whatever the schema
export async function dbSnapshotter(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<DbSnapshot> {
  const tables = (await db.introspection.getTables())
    .filter((t) => !t.name.startsWith('kysely_'))
    .map((t) => t.name)
    .sort();
  if (tables.length === 0) throw new Error('no tables to snapshot');
  let query: string;
  if (dialect === 'postgres') {
    // Every row's text form, sorted, hashed by the server: only 32 characters per table travel.
    query = `select ${tables
      .map(
        (t) =>
          `(select count(*) || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from "${t}" x) as "${t}"`,
      )
      .join(', ')}`;
  } else {
    const parts: string[] = [];
    for (const t of tables) {
      const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${t})`.execute(db);
      const row = rows.map((c) => `quote("${c.name}")`).join(` || ',' || `);
      parts.push(
        `(select count(*) || ':' || coalesce(group_concat(r, '|'), '') from (select ${row} as r from "${t}" order by rowid)) as "${t}"`,
      );
    }
    query = `select ${parts.join(', ')}`;
  }
  const compiled = sql.raw(query);
  const snapshot = (async () => {
    const { rows } = await compiled.execute(db);
    return createHash('sha256').update(JSON.stringify(rows[0])).digest('hex');
  }) as DbSnapshot;
  snapshot.tables = tables;
  return snapshot;
}

/** Row counts per table, for a readable failure message. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks every table, whatever the schema
export async function rowCounts(db: Kysely<any>, tables: string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of tables) {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(db);
    out[t] = Number(rows[0]?.n ?? 0);
  }
  return out;
}

/**
 * A counter of every row inserted, updated or deleted in the app's tables, kept by triggers: cheaper
 * than a fingerprint when thousands of calls each need a before/after, and stricter (a write that
 * puts back the same value counts too). Test instrumentation only: it adds a table and triggers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- walks every table, whatever the schema
export async function dbWriteCounter(db: Kysely<any>, dialect: 'sqlite' | 'postgres'): Promise<() => Promise<number>> {
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_'));
  await sql`create table zz_test_writes (n integer not null)`.execute(db);
  await sql`insert into zz_test_writes (n) values (0)`.execute(db);
  if (dialect === 'postgres') {
    await sql
      .raw(
        `create function zz_test_bump() returns trigger language plpgsql as $$ begin update zz_test_writes set n = n + 1; return null; end $$`,
      )
      .execute(db);
  }
  for (const t of tables) {
    if (dialect === 'postgres') {
      await sql
        .raw(
          `create trigger "zz_${t}" after insert or update or delete on "${t}" for each row execute function zz_test_bump()`,
        )
        .execute(db);
    } else {
      for (const op of ['insert', 'update', 'delete']) {
        await sql
          .raw(`create trigger "zz_${t}_${op}" after ${op} on "${t}" begin update zz_test_writes set n = n + 1; end`)
          .execute(db);
      }
    }
  }
  return async () => Number((await sql<{ n: number }>`select n from zz_test_writes`.execute(db)).rows[0]?.n);
}
