// The product as its own process, in production mode: `node packages/server/dist/server.js` with
// the node options `npm start` uses, SQLite in a temporary DATA_DIR, logging at `warn`, and limits
// that would throttle a load generator turned off. The time from spawn to the first answered request
// is measured on every start.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '@hello/testkit/ports';
import { exited, startChild, stopChild } from './processes.mjs';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/**
 * The built server. BENCH_SERVER_DIST points at another build of it (a patched copy, for a
 * before/after comparison); it must sit where it can resolve the repository's node_modules.
 */
export const SERVER_DIST = path.resolve(ROOT, process.env.BENCH_SERVER_DIST ?? 'packages/server/dist');
export const SERVER_ENTRY = path.join(SERVER_DIST, 'server.js');
export const CLI_ENTRY = path.join(SERVER_DIST, 'cli.js');

/**
 * The options `npm start` gives node (the root package.json's start script, `node <options>
 * scripts/start.mjs`), so that the server measured runs as the one users start.
 */
export const START_NODE_ARGS = (() => {
  const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const words = String(scripts?.start ?? '').split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) return [];
  const options = [];
  for (const word of words.slice(node + 1)) {
    if (!word.startsWith('--')) break;
    options.push(word);
  }
  return options;
})();

/**
 * The environment of every benchmarked server process (README, "Configuration").
 * @param {string} dataDir
 * @param {number} port
 */
export function benchEnv(dataDir, port) {
  /** @type {Record<string, string>} */
  const env = {};
  // Only what a node process needs from ours; nothing of a developer's configuration leaks in.
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'UV_THREADPOOL_SIZE']) {
    if (process.env[key] !== undefined) env[key] = /** @type {string} */ (process.env[key]);
  }
  return {
    ...env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // A bench measures throughput: no abuse limits (0 turns each off).
    RATE_LIMIT_LOGIN: '0',
    RATE_LIMIT_REGISTER: '0',
    RATE_LIMIT_RESET: '0',
    // Long enough that one access token lasts the whole run.
    ACCESS_TOKEN_LIFETIME: '3600',
  };
}

/**
 * One GET on a fresh connection; resolves with the status, or rejects (refused, reset, timeout).
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {Promise<number>}
 */
function probe(url, timeoutMs) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false, timeout: timeoutMs }, (response) => {
      response.resume();
      resolve(/** @type {number} */ (response.statusCode));
    });
    request.once('timeout', () => request.destroy(new Error('probe timed out')));
    request.once('error', reject);
  });
}

/** The path polled until the server answers: any HTTP answer counts as "answered". */
export const READY_PATH = '/api/openapi.json';

/**
 * Polls `url` every `intervalMs` until it answers; rejects when `child` exits first or after `timeoutMs`.
 * @param {string} url
 * @param {import('node:child_process').ChildProcess} child
 * @param {{ intervalMs?: number, timeoutMs?: number }} [options]
 * @returns {Promise<number>} the HTTP status of the first answer
 */
export async function waitUntilAnswering(url, child, { intervalMs = 10, timeoutMs = 60_000 } = {}) {
  const deadline = performance.now() + timeoutMs;
  let gone = false;
  exited(child).then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error('exited before answering');
    try {
      return await probe(url, 1000);
    } catch {
      /* not listening yet */
    }
    if (performance.now() > deadline) throw new Error(`no answer within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Starts the product server on a free loopback port over `dataDir` and waits for its first answer.
 * `nodeArgs` go to node before the script (memory-rounds.mjs: `--trace-gc`).
 * @param {string} dataDir
 * @param {{ label?: string, nodeArgs?: string[] }} [options]
 * @returns {Promise<{ url: string, port: number, pid: number, readyMs: number, firstStatus: number,
 *   stop: () => Promise<void>, tracked: import('./processes.mjs').Tracked }>}
 */
export async function startServer(dataDir, { label = 'server', nodeArgs = [] } = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // cwd is the data directory's parent, a temporary directory: no stray `.env` is read.
  const cwd = path.dirname(dataDir);
  const started = performance.now();
  const tracked = startChild(label, process.execPath, [...START_NODE_ARGS, ...nodeArgs, SERVER_ENTRY], {
    cwd,
    env: benchEnv(dataDir, port),
  });
  let firstStatus;
  try {
    firstStatus = await waitUntilAnswering(url + READY_PATH, tracked.child);
  } catch (error) {
    await stopChild(tracked);
    throw new Error(
      `${label} did not start (${/** @type {Error} */ (error).message}). Its output:\n${tracked.output()}`,
      { cause: error },
    );
  }
  const readyMs = performance.now() - started;
  return {
    url,
    port,
    pid: /** @type {number} */ (tracked.child.pid),
    readyMs,
    firstStatus,
    tracked,
    stop: () => stopChild(tracked, 12_000),
  };
}
