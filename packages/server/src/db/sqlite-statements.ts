import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/**
 * better-sqlite3 behind Kysely, with its prepared statements kept: Kysely prepares every query anew,
 * and preparing costs more than running our small queries. The same SQL text (values are bound
 * parameters) reuses its statement; SQLite re-prepares it by itself after a schema change. Kysely's
 * driver runs one query at a time on the connection, so a statement is never in use twice at once.
 */
export function withStatementCache(sqlite: SQLite.Database, capacity = 256): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the first key is the one to drop when full.
        statements.delete(sql);
      } else {
        statement = sqlite.prepare(sql);
        if (statements.size >= capacity) statements.delete(statements.keys().next().value as string);
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
