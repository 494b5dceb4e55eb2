// Before/after of the JSON reads for a change on the hot path (docs/benchmarks.md): two builds of the
// server, each on its own data, `GET /api/v1/localnews/` with 20 items and a Bearer token, in
// alternating short runs, the load generator and the servers pinned apart. Usage:
//   node scripts/bench/compare-reads.mjs <before dist> <after dist> [rounds=7] [seconds=3]
import path from 'node:path';
import { apiPaths } from '@hello/contract';
import { coreSplit, pin } from './cores.mjs';
import { addNews, registerUser } from './fixtures.mjs';
import { runAlternating, warmUp } from './load.mjs';
import { cleanupAll, installCleanupHandlers, startChild, stopChild, tempDir } from './processes.mjs';
import { benchEnv, START_NODE_ARGS, READY_PATH, waitUntilAnswering } from './server.mjs';
import { freePort } from '@hello/testkit/ports';

const [before, after, rounds = '7', seconds = '3'] = process.argv.slice(2);
if (!before || !after) {
  console.error('usage: node scripts/bench/compare-reads.mjs <before dist> <after dist> [rounds] [seconds]');
  process.exit(2);
}
installCleanupHandlers();
const cores = coreSplit();
if (cores) pin(process.pid, cores.client);

/**
 * @param {string} label
 * @param {string} dist a build of the server (its dist directory)
 */
async function start(label, dist) {
  const dataDir = path.join(tempDir(label), 'data');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const tracked = startChild(label, process.execPath, [...START_NODE_ARGS, path.resolve(dist, 'server.js')], {
    cwd: path.dirname(dataDir),
    env: benchEnv(dataDir, port),
  });
  await waitUntilAnswering(url + READY_PATH, tracked.child);
  if (cores) pin(/** @type {number} */ (tracked.child.pid), cores.servers);
  const user = await registerUser(url);
  await addNews(url, user.refresh, 20);
  return { label, url, pid: tracked.child.pid, tracked, user };
}

const servers = [await start('before', before), await start('after', after)];
const targets = servers.map((s) => ({
  url: s.url + apiPaths.localNews,
  headers: { authorization: `Bearer ${s.user.access}` },
  connections: 10,
  targetPid: s.pid,
}));
for (const target of targets) await warmUp(target, 2);
const results = await runAlternating(targets, Number(rounds), Number(seconds));
for (const [i, server] of servers.entries()) {
  const r = results[i];
  const cpuPerRequestUs = r.targetCpu === null ? NaN : (r.targetCpu * 1e6) / r.reqPerSec;
  console.log(
    `${server.label}: ${Math.round(r.reqPerSec)} req/s (median of ${rounds}), ${cpuPerRequestUs.toFixed(1)} µs server CPU per request, p99 ${r.p99} ms${r.problem ? ` (${r.problem})` : ''}`,
  );
}
for (const server of servers) await stopChild(server.tracked);
cleanupAll();
