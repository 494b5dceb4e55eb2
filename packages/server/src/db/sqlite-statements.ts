import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

export interface StatementCache extends SqliteDatabase {
  /**
   * Runs a read-only query at once, outside Kysely's driver, and returns its rows; undefined (run it
   * through Kysely instead) while a transaction is open on the connection, whose uncommitted writes
   * such a read would see, or when the query writes.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
}

/**
 * better-sqlite3 behind Kysely, with its prepared statements kept: Kysely prepares every query anew,
 * and preparing costs more than running our small queries. The same SQL text (values are bound
 * parameters) reuses its statement; SQLite re-prepares it by itself after a schema change. Kysely's
 * driver runs one query at a time on the connection, and readNow runs synchronously, so a statement
 * is never in use twice at once.
 */
export function withStatementCache(sqlite: SQLite.Database, capacity = 256): StatementCache {
  const statements = new Map<string, SQLite.Statement>();
  function prepare(sql: string) {
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
  }
  return {
    prepare,
    readNow(sql, parameters) {
      // Kysely holds its connection lock from BEGIN to COMMIT across awaits; between its other
      // queries the connection is idle, and a synchronous read cannot interleave with one.
      if (sqlite.inTransaction) return undefined;
      const statement = prepare(sql);
      return statement.reader ? (statement.all(parameters) as unknown[]) : undefined;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

const direct = new WeakMap<object, StatementCache>();

/** Lets precompiled reads on `db` (a Kysely instance over `statements`) skip Kysely's driver. */
export function allowDirectReads(db: object, statements: StatementCache): void {
  direct.set(db, statements);
}

/** The rows of a read-only query run at once on `db`'s SQLite connection, or undefined when it cannot be. */
export function readNow(db: object, sql: string, parameters: readonly unknown[]): unknown[] | undefined {
  return direct.get(db)?.readNow(sql, parameters);
}
