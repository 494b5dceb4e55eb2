// The load generator: autocannon's programmatic API, on loopback, with the figures the report needs.
// It also measures the CPU the target process and this (the client) process used during the run,
// so a run limited by the load generator rather than the target can be told apart.
import autocannon from 'autocannon';
import { performance } from 'node:perf_hooks';
import { treeCpuMs } from './memory.mjs';
import { onCleanup } from './processes.mjs';
import { mean, median } from './stats.mjs';

/**
 * @typedef {object} LoadResult
 * @property {number} reqPerSec completed requests per second over the whole run
 * @property {number} bytesPerSec response bytes (headers and bodies) per second
 * @property {number} p50 latency in ms
 * @property {number} p99 latency in ms
 * @property {number} total completed requests
 * @property {number} non2xx answers outside 2xx
 * @property {number} errors connection errors and timeouts
 * @property {number} seconds wall time of the run
 * @property {number | null} targetCpu the target's CPU use (with its direct children's), in cores
 *   (1 = one core busy all the time)
 * @property {number} clientCpu this process's CPU use, in cores
 * @property {string | undefined} problem why the figures do not count (non-2xx answers, errors), if they do not
 */

/**
 * autocannon appends every answer's body to a string, decoding it as UTF-8, though nothing here reads
 * it: for a compressed body of 10 kB that is the load generator's largest cost per answer, and a
 * larger answer then measures the load generator more than the server (docs/benchmarks.md, "News at
 * scale"). `discardBodies` drops them as they come (each connection's client, through autocannon's
 * setupClient), so answers of different sizes compare on the server's own work.
 */
const discardBodies = (/** @type {import('autocannon').Client} */ client) => {
  // pipelinedRequests is autocannon's internal state, not in its types.
  /** @type {import('autocannon').Client & { pipelinedRequests: { addBody: () => void } }} */ (
    client
  ).pipelinedRequests.addBody = () => {};
};

/**
 * Runs one autocannon instance to completion.
 * @param {import('autocannon').Options & { targetPid?: number, discardBodies?: boolean }} options
 *   autocannon's options (url, connections, duration or amount, method, headers, body, requests,
 *   overallRate…), plus the pid of the process under load, and whether to drop the bodies unread
 * @returns {Promise<LoadResult>}
 */
export async function runLoad({ targetPid, discardBodies: discard = false, ...options }) {
  if (discard) options.setupClient = discardBodies;
  const targetBefore = targetPid ? treeCpuMs(targetPid) : null;
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  // Without a callback autocannon returns its Instance, which is also a promise of the Result
  // (@types/autocannon says only Promise<Result>, without the Instance's stop()).
  const instance = /** @type {import('autocannon').Instance & Promise<import('autocannon').Result>} */ (
    autocannon(/** @type {import('autocannon').Options} */ ({ connections: 10, timeout: 10, ...defined }))
  );
  const unregister = onCleanup(() => instance.stop());
  let result;
  try {
    result = await instance;
  } finally {
    unregister();
  }
  const wallMs = performance.now() - started;
  const targetAfter = targetPid ? treeCpuMs(targetPid) : null;
  const client = process.cpuUsage(clientBefore);
  const seconds = result.duration || wallMs / 1000;
  const non2xx = result.non2xx ?? 0;
  const errors = (result.errors ?? 0) + (result.timeouts ?? 0);
  let problem;
  if (result.requests.total === 0) problem = 'no request completed';
  else if (non2xx > 0) problem = `${non2xx} of ${result.requests.total} answers were not 2xx`;
  else if (errors > 0) problem = `${errors} connection errors or timeouts`;
  return {
    reqPerSec: result.requests.total / seconds,
    bytesPerSec: result.throughput.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    non2xx,
    errors,
    seconds,
    targetCpu: targetBefore !== null && targetAfter !== null ? (targetAfter - targetBefore) / wallMs : null,
    clientCpu: (client.user + client.system) / 1000 / wallMs,
    problem,
  };
}

/**
 * A short unmeasured run first, so the JIT, caches and connections are warm.
 * @param {Parameters<typeof runLoad>[0]} options
 * @param {number} seconds
 */
export async function warmUp(options, seconds) {
  if (seconds > 0) await runLoad({ ...options, duration: seconds, amount: undefined, overallRate: undefined });
}

/**
 * Runs each target in turn, `rounds` times, `seconds` a run, and gives each one's median run
 * (median requests per second, p50 and p99; CPU in cores averaged). Alternating short runs puts a
 * busy spell of a shared machine on every target alike, where one long run each would put it on one.
 * @param {Array<Parameters<typeof runLoad>[0]>} targets
 * @param {number} rounds
 * @param {number} seconds
 * @returns {Promise<LoadResult[]>}
 */
export async function runAlternating(targets, rounds, seconds) {
  /** @type {LoadResult[][]} */
  const runs = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, target] of targets.entries()) runs[i].push(await runLoad({ ...target, duration: seconds }));
  }
  return runs.map((results) => ({
    ...results[0],
    reqPerSec: median(results.map((r) => r.reqPerSec)),
    bytesPerSec: median(results.map((r) => r.bytesPerSec)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    total: results.reduce((sum, r) => sum + r.total, 0),
    non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds: results.reduce((sum, r) => sum + r.seconds, 0),
    targetCpu: results.some((r) => r.targetCpu === null)
      ? null
      : mean(results.map((r) => /** @type {number} */ (r.targetCpu))),
    clientCpu: mean(results.map((r) => r.clientCpu)),
    problem: results.find((r) => r.problem)?.problem,
  }));
}
