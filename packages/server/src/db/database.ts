import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from './schema.js';
import { allowDirectReads, withStatementCache } from './sqlite-statements.js';
import { BUSY_TIMEOUT_MS, WriteLockingSqliteDialect } from './sqlite-write-lock.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * Row locks (`FOR UPDATE`, `FOR SHARE`) are PostgreSQL's; on SQLite every transaction holds the one
 * write lock from its start (sqlite-write-lock.ts), so none is needed there.
 */
export const isPostgres = (db: Kysely<Database>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs `work` (the migrations) on a database whose statements have no time limit: on PostgreSQL a
   * pool of its own, closed after it; on SQLite `db` itself.
   */
  withoutQueryTimeout<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * The PostgreSQL driver, loaded on first use: a server on SQLite (the default) never spends its
 * start-up loading it.
 */
function loadPg(): typeof import('pg') {
  const pg = require('pg') as typeof import('pg');
  // bigint columns (file sizes) come back from PostgreSQL as strings by default; they fit a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  return pg;
}

/** How long an open waits for another process to turn a new file's journal to WAL. */
const WAL_WAIT_MS = 10_000;
const WAL_RETRY_MS = 10;

/**
 * `journal_mode = WAL`, which a new file needs once and a used one already has. Two instances that
 * open a new file at once (a first start on a fresh DATA_DIR, README "Configuration") both read it
 * and both ask for its exclusive lock to change the mode; SQLite answers one of them SQLITE_BUSY at
 * once, without its busy timeout, as waiting could deadlock (test/reliability/sqlite-first-open.test.ts
 * and concurrent-start.test.ts). That one tries again until the other is done. The wait blocks the
 * thread, as better-sqlite3's own busy timeout would: this runs once, while the app is being built,
 * before it serves anything.
 */
function useWal(sqlite: SQLite.Database): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const deadline = Date.now() + WAL_WAIT_MS; ; Atomics.wait(pause, 0, 0, WAL_RETRY_MS)) {
    try {
      sqlite.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
    }
  }
}

/** A query's connection lost, or its answer given up on, while the query was on its way or running. */
const LOST_IN_FLIGHT_CODES = new Set(['ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '08000', '08003', '08006']);
// node-postgres's words for the same; after a failed COMMIT Kysely tries a ROLLBACK and throws what
// that says instead, on a lost connection "Client has encountered a connection error ...".
const LOST_IN_FLIGHT_MESSAGE = /Connection terminated|Client has encountered a connection error|Query read timeout/i;

/**
 * True for a query whose connection was lost, or whose answer node-postgres stopped waiting for (its
 * query timeout, below), while it was on its way or running: the call answers 503
 * (plugins/app/errors.ts), and a COMMIT failed so may have committed all the same
 * (news/news-changes.ts). SQLite runs in this process: what fails there, failed.
 */
export function lostInFlight(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && LOST_IN_FLIGHT_CODES.has(code)) return true;
  return typeof message === 'string' && LOST_IN_FLIGHT_MESSAGE.test(message);
}

/** The SQLite database's file: DATA_DIR/app.db. */
export const sqliteFile = (dataDir: string): string => path.join(dataDir, 'app.db');

/** One query layer over SQLite (the default) or PostgreSQL (`DATABASE_URL`). */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): DatabaseHandle {
  if (config.databaseUrl) {
    const pg = loadPg();
    const connectionString = config.databaseUrl;
    // Neither connecting nor a query may wait for ever on a server that hangs (frozen, partitioned):
    // the call answers 503 after 5 s instead (plugins/app/errors.ts, isDatabaseUnavailable).
    const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 5000, query_timeout: 5000 });
    // An idle client losing its server must not crash the process; the next query reports it.
    pool.on('error', () => {});
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      dialect: 'postgres',
      // A migration may rightly take longer than a request's 5 s: an index built on a large table, or
      // the wait for the migration lock while another instance migrates. Connecting keeps its bound.
      async withoutQueryTimeout(work) {
        const unbounded = new pg.Pool({ connectionString, max: 2, connectionTimeoutMillis: 5000, keepAlive: true });
        unbounded.on('error', () => {});
        const migrating = new Kysely<Database>({ dialect: new PostgresDialect({ pool: unbounded }) });
        try {
          return await work(migrating);
        } finally {
          await migrating.destroy();
        }
      },
      close: () => db.destroy(),
    };
  }
  mkdirSync(config.dataDir, { recursive: true });
  const sqlite = new SQLite(sqliteFile(config.dataDir));
  useWal(sqlite);
  // FULL: a commit is on disk before the call that made it answers (docs/api.md, "What is never lost").
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // SQLite's own default page cache, 2 MB (better-sqlite3 builds it with 16 MB): the pages every
  // request reads (indexes' upper levels, sessions) stay in it, and the rest come from the OS's cache.
  // Items read at random across a large store filled all 16 MB for little gain (docs/benchmarks.md).
  sqlite.pragma('cache_size = -2000');
  const statements = withStatementCache(sqlite);
  const db = new Kysely<Database>({ dialect: new WriteLockingSqliteDialect({ database: statements }) });
  allowDirectReads(db, statements);
  // SQLite's waits are bounded by its busy timeout, not by a query timeout.
  return { db, dialect: 'sqlite', withoutQueryTimeout: (work) => work(db), close: () => db.destroy() };
}
