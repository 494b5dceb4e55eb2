import { PostgresAdapter, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * An auto-incrementing integer primary key: `serial` on PostgreSQL, `integer ... autoincrement` on
 * SQLite. The one place where the two dialects' DDL differ.
 */
export function autoIncrementId(
  db: Kysely<any>,
): ['serial' | 'integer', (c: ColumnDefinitionBuilder) => ColumnDefinitionBuilder] {
  return isPostgres(db) ? ['serial', (c) => c.primaryKey()] : ['integer', (c) => c.primaryKey().autoIncrement()];
}
