export interface StartPostgresOptions {
  /** Port to listen on (127.0.0.1). Default: one the OS picks. */
  port?: number;
  /** Directory holding `postgres` and `initdb`. Default: PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH. */
  binDir?: string;
}

export interface PostgresCluster {
  /** 127.0.0.1 port the cluster listens on; kept across stop({ keepData: true }) / start(). */
  readonly port: number;
  /** URL of the database `test`, empty and ready to use. */
  readonly url: string;
  /** URL of the `postgres` maintenance database, for CREATE/DROP DATABASE and inspection. */
  readonly adminUrl: string;
  readonly dataDir: string;
  /** The server's log (warnings and errors), handy in a failing test's message. */
  readonly logFile: string;
  readonly running: boolean;
  /** Where the start went: template (initdb once per machine, else ~0) and server start, in ms. */
  readonly timings: { templateMs: number; startMs: number; totalMs: number };
  /** URL of database `name` on this cluster (the database need not exist yet). */
  urlFor(name: string): string;
  /** CREATE DATABASE name; returns its URL. Names: lower-case letters, digits, underscore. */
  createDatabase(name: string): Promise<string>;
  /** DROP DATABASE IF EXISTS name WITH (FORCE): ends its sessions first. */
  dropDatabase(name: string): Promise<void>;
  /** Fast shutdown; removes the data unless keepData. With keepData, start() brings it back on the same port. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Starts a stopped (or killed) cluster again on the same port and data. No-op when running. */
  start(): Promise<void>;
  /** stop({ keepData: true }) then start(). */
  restart(): Promise<void>;
  /** SIGKILL to the postmaster and every backend at once (a crash); data kept, start() recovers it. */
  kill(): Promise<void>;
  /** SIGSTOP to every process of the cluster: connections hang instead of failing. */
  pause(): void;
  /** SIGCONT after pause(). */
  resume(): void;
}

/** Starts a throwaway PostgreSQL cluster. Removed by stop(), or when this process exits however it exits. */
export declare function startPostgres(options?: StartPostgresOptions): Promise<PostgresCluster>;

/** The server binaries startPostgres would use (PG_BIN, else /usr/lib/postgresql/N/bin, else PATH). */
export declare function findPostgresBinaries(binDir?: string): { postgres: string; initdb: string };
