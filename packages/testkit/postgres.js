// @ts-check
// A throwaway PostgreSQL cluster for tests: its own data directory in a temp dir, trust auth on
// 127.0.0.1 only, a port the OS picked, fsync on. Clusters are copied from a template made once
// per machine by initdb (initdb costs ~1.3 s, a copy ~0.1 s), and a watchdog process removes a
// cluster whose owner died without cleaning up (SIGKILL, a crashed test runner).
// Clusters live in /dev/shm when there is one (TESTKIT_PG_TMPDIR overrides): fsync stays on, so
// commits take the real code path, but a disk fsync here costs 4-12 ms and made each commit ~100 ms.
// What the tests prove (survival of a killed process) does not depend on the disk.
import { spawn, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdtempSync,
  openSync,
  closeSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  chownSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { once } from 'node:events';
import pg from 'pg';
import { freePort } from './ports.js';

/** @import { PostgresCluster, StartPostgresOptions } from './postgres.js' */
/** @import { ChildProcess } from 'node:child_process' */

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const HBA = 'local all all trust\nhost all all 127.0.0.1/32 trust\n';

function baseDir() {
  if (process.env.TESTKIT_PG_TMPDIR) return process.env.TESTKIT_PG_TMPDIR;
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

/** @type {Set<() => void>} */
const exitHooks = new Set();
process.once('exit', () => {
  for (const hook of exitHooks) hook();
});

/**
 * Where the server binaries are: PG_BIN, else the newest /usr/lib/postgresql/N/bin, else PATH.
 * @param {string} [binDir]
 * @returns {{ postgres: string, initdb: string }}
 */
export function findPostgresBinaries(binDir = process.env.PG_BIN) {
  /** @param {string} dir */
  const inDir = (dir) => ({ postgres: join(dir, 'postgres'), initdb: join(dir, 'initdb') });
  if (binDir) {
    if (!existsSync(join(binDir, 'postgres'))) throw new Error(`PG_BIN=${binDir} holds no postgres binary`);
    return inDir(binDir);
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => /^\d+(\.\d+)?$/.test(v)) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(join(root, v, 'bin', 'postgres'))) return inDir(join(root, v, 'bin'));
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'postgres')) && existsSync(join(dir, 'initdb'))) return inDir(dir);
  }
  throw new Error('PostgreSQL server binaries not found: set PG_BIN, or install them (apt-get install postgresql-15)');
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user.
 * @returns {{ uid: number, gid: number } | undefined}
 */
function clusterOwner() {
  if (process.getuid?.() !== 0) return undefined;
  const users = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'));
  const entry = users.find((u) => u[0] === 'postgres') ?? users.find((u) => u[0] === 'nobody');
  if (!entry) throw new Error('running as root, but there is no postgres (or nobody) user to run PostgreSQL as');
  return { uid: Number(entry[2]), gid: Number(entry[3]) };
}

/**
 * @param {string} file
 * @param {string[]} args
 * @param {{ uid: number, gid: number } | undefined} owner
 */
function runAs(file, args, owner) {
  return execFileSync(file, args, { ...owner, cwd: tmpdir(), env: { ...process.env, LC_ALL: 'C' }, stdio: 'pipe' });
}

/**
 * The template data directory for these binaries, made by initdb on first use. It already holds
 * a database named `test`, so a new cluster needs no CREATE DATABASE.
 * @param {{ postgres: string, initdb: string }} bins
 * @param {{ uid: number, gid: number } | undefined} owner
 */
async function templateDir(bins, owner) {
  const key = createHash('sha256')
    .update(`${bins.postgres}:${statSync(bins.postgres).mtimeMs}:${owner?.uid}:v1`)
    .digest('hex')
    .slice(0, 12);
  const finalDir = join(baseDir(), `hello-testkit-pg-template-${key}`);
  if (existsSync(join(finalDir, 'data', 'PG_VERSION'))) return join(finalDir, 'data');
  const work = makeDir('hello-testkit-pg-template-tmp-', owner);
  try {
    runAs(
      bins.initdb,
      ['-D', join(work, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      owner,
    );
    writeOwned(join(work, 'data', 'pg_hba.conf'), HBA, owner);
    const server = await launch(bins, join(work, 'data'), work, await freePort(), owner);
    try {
      await withClient(adminUrlFor(server.port), (c) => c.query('CREATE DATABASE test'));
    } finally {
      await server.stop();
    }
    renameSync(work, finalDir); // atomic; fails if another process won the race, which is fine
  } catch (error) {
    rmSync(work, { recursive: true, force: true });
    if (!existsSync(join(finalDir, 'data', 'PG_VERSION'))) throw error;
  }
  return join(finalDir, 'data');
}

/**
 * @param {string} prefix
 * @param {{ uid: number, gid: number } | undefined} owner
 */
function makeDir(prefix, owner) {
  const dir = mkdtempSync(join(baseDir(), prefix));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  return dir;
}

/**
 * @param {string} file
 * @param {string} text
 * @param {{ uid: number, gid: number } | undefined} owner
 */
function writeOwned(file, text, owner) {
  writeFileSync(file, text);
  if (owner) chownSync(file, owner.uid, owner.gid);
}

/** @param {number} port */
const adminUrlFor = (port) => `postgres://postgres@127.0.0.1:${port}/postgres`;

/**
 * @template T
 * @param {string} url
 * @param {(client: pg.Client) => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts the postmaster and resolves once it accepts connections.
 * @param {{ postgres: string }} bins
 * @param {string} dataDir
 * @param {string} socketDir
 * @param {number} port
 * @param {{ uid: number, gid: number } | undefined} owner
 */
async function launch(bins, dataDir, socketDir, port, owner) {
  const logFile = join(socketDir, 'postgres.log');
  const logFd = openSync(logFile, 'a');
  const settings = {
    listen_addresses: '127.0.0.1',
    port: String(port),
    unix_socket_directories: socketDir,
    fsync: 'on',
    synchronous_commit: 'on',
    shared_buffers: '16MB',
    max_connections: '200',
    log_min_messages: 'warning',
    log_line_prefix: '%m [%p] ',
    // Segments as files in the data dir, not in /dev/shm where a killed cluster would leak them.
    dynamic_shared_memory_type: 'mmap',
  };
  const args = ['-D', dataDir, ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];
  // detached: a Ctrl-C meant for the test runner does not reach it; we decide when it stops.
  const child = spawn(bins.postgres, args, {
    ...owner,
    cwd: socketDir,
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: { ...process.env, LC_ALL: 'C' },
  });
  closeSync(logFd);
  child.unref();
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`postgres exited while starting:\n${tail(logFile)}`);
    try {
      await withClient(adminUrlFor(port), async () => {});
      break;
    } catch {
      if (Date.now() > deadline) {
        signalCluster(child, 'SIGKILL');
        throw new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS} ms:\n${tail(logFile)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return {
    child,
    port,
    logFile,
    /** Fast shutdown: ends sessions, checkpoints, exits. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exit = once(child, 'exit');
      child.ref(); // keep this process alive until postgres is down
      signalCluster(child, 'SIGCONT'); // a paused cluster would never see the shutdown request
      child.kill('SIGINT');
      const timer = setTimeout(() => signalCluster(child, 'SIGKILL'), STOP_TIMEOUT_MS);
      await exit;
      clearTimeout(timer);
    },
  };
}

/**
 * Signals the postmaster and every backend. Backends call setsid(), so they are not in the
 * postmaster's process group: we find them as its children in /proc. The postmaster is stopped
 * first so it cannot fork a new backend while we look.
 * @param {ChildProcess} child
 * @param {NodeJS.Signals} signal
 * @returns {number[]} the pids signalled
 */
function signalCluster(child, signal) {
  const pid = child.pid;
  if (!pid || child.exitCode !== null || child.signalCode !== null) return [];
  const send = (/** @type {number} */ p, /** @type {NodeJS.Signals} */ s) => {
    try {
      process.kill(p, s);
    } catch {
      /* already gone */
    }
  };
  if (signal !== 'SIGCONT') send(pid, 'SIGSTOP');
  const pids = [...childrenOf(pid), pid];
  for (const p of pids) send(p, signal);
  if (signal === 'SIGKILL' || signal === 'SIGCONT') send(pid, 'SIGCONT');
  return pids;
}

/** @param {number} parent */
function childrenOf(parent) {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .map(Number)
    .filter((p) => procStat(p)?.ppid === parent);
}

/**
 * @param {number} pid
 * @returns {{ state: string, ppid: number } | undefined}
 */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** @param {string} file */
function tail(file) {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Removes `dir` once this process is gone, however it died. Reads the postmaster's pid from the
 * data directory at that moment, so it covers restarts too.
 * @param {string} dir
 */
function startWatchdog(dir) {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done
pid=$(head -n 1 "$1/data/postmaster.pid" 2>/dev/null) && grep -q postgres "/proc/$pid/cmdline" 2>/dev/null && kill -KILL "$pid"
sleep 1; rm -rf "$1"`;
  const dog = spawn('/bin/sh', ['-c', script, 'watchdog', dir], { detached: true, stdio: 'ignore' });
  dog.unref();
  return dog;
}

/**
 * @param {StartPostgresOptions} [options]
 * @returns {Promise<PostgresCluster>}
 */
export async function startPostgres(options = {}) {
  const t0 = performance.now();
  const bins = findPostgresBinaries(options.binDir);
  const owner = clusterOwner();
  const template = await templateDir(bins, owner);
  const t1 = performance.now();
  const dir = makeDir('hello-pg-', owner);
  const dataDir = join(dir, 'data');
  execFileSync('cp', ['-a', template, dataDir]); // -a keeps the owner when we are root
  rmSync(join(dataDir, 'postmaster.pid'), { force: true });
  const watchdog = startWatchdog(dir);
  const port = options.port ?? (await freePort());
  /** @type {Awaited<ReturnType<typeof launch>> | undefined} */
  let server;
  let removed = false;

  const removeNow = () => {
    if (server) signalCluster(server.child, 'SIGKILL');
    watchdog.kill('SIGKILL');
    if (!removed) rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    removed = true;
    exitHooks.delete(removeNow);
  };
  exitHooks.add(removeNow);

  /** @param {string} name */
  const checkName = (name) => {
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`not a plain database name: ${name}`);
    return name;
  };
  /** @param {string} name */
  const urlFor = (name) => `postgres://postgres@127.0.0.1:${port}/${checkName(name)}`;
  const isRunning = () => server !== undefined && server.child.exitCode === null && server.child.signalCode === null;

  const start = async () => {
    if (removed) throw new Error('this cluster was stopped and removed; start a new one');
    if (isRunning()) return;
    server = await launch(bins, dataDir, dir, port, owner);
  };

  await start();
  const t2 = performance.now();

  return {
    port,
    url: urlFor('test'),
    adminUrl: adminUrlFor(port),
    dataDir,
    get logFile() {
      return join(dir, 'postgres.log');
    },
    get running() {
      return isRunning();
    },
    timings: { templateMs: Math.round(t1 - t0), startMs: Math.round(t2 - t1), totalMs: Math.round(t2 - t0) },
    urlFor,
    async createDatabase(name) {
      await withClient(adminUrlFor(port), (c) => c.query(`CREATE DATABASE ${checkName(name)}`));
      return urlFor(name);
    },
    async dropDatabase(name) {
      await withClient(adminUrlFor(port), (c) => c.query(`DROP DATABASE IF EXISTS ${checkName(name)} WITH (FORCE)`));
    },
    start,
    async stop({ keepData = false } = {}) {
      if (server) await server.stop();
      if (!keepData) removeNow();
    },
    async restart() {
      if (server) await server.stop();
      await start();
    },
    async kill() {
      if (!server || !isRunning()) return;
      const exit = once(server.child, 'exit');
      server.child.ref();
      const pids = signalCluster(server.child, 'SIGKILL');
      await exit;
      // A new postmaster refuses to start while a dying backend still holds the shared memory.
      await waitUntil(() => pids.every((p) => (procStat(p)?.state ?? 'Z') === 'Z'));
    },
    pause() {
      if (server) signalCluster(server.child, 'SIGSTOP');
    },
    resume() {
      if (server) signalCluster(server.child, 'SIGCONT');
    },
  };
}

/** @param {() => boolean} done */
async function waitUntil(done, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for PostgreSQL processes to exit');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
