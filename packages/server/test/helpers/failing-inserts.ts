import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';

/**
 * Makes every insert into `table` fail, by a trigger, until the returned function drops it: a write
 * refused in the middle of a change, to see what the change leaves behind. Test instrumentation only.
 */
export async function failInserts(db: Kysely<Database>, table: keyof Database & string): Promise<() => Promise<void>> {
  const name = sql.id(`zz_fail_${table}`);
  if (isPostgres(db)) {
    await sql`create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'insert refused by a test'; end $$`.execute(
      db,
    );
    await sql`create trigger ${name} before insert on ${sql.table(table)} for each row execute function ${name}()`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger ${name} on ${sql.table(table)}`.execute(db);
      await sql`drop function ${name}()`.execute(db);
    };
  }
  await sql`create trigger ${name} before insert on ${sql.table(table)} begin select raise(abort, 'insert refused by a test'); end`.execute(
    db,
  );
  return async () => {
    await sql`drop trigger ${name}`.execute(db);
  };
}
