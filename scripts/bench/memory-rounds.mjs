#!/usr/bin/env node
// Memory over many rounds, beyond the benchmark's three: the product (as `npm run bench` starts it)
// with its fixtures, then ROUNDS (default 6) rounds of 100,000 mixed requests (news list, PDF 3, the
// home page), printing the server's RSS after each. Whether RSS trends upward shows here; a single
// round-to-round difference is mostly when the garbage collector last ran. So the server runs with
// V8's --trace-gc, and each round also prints what the heap held after its last full collection
// (mark-compact), which a leak raises and the garbage collector's timing does not; V8 runs one only
// every several rounds, so most rounds repeat the previous figure.
//   node scripts/bench/memory-rounds.mjs            ROUNDS=25 node scripts/bench/memory-rounds.mjs
import path from 'node:path';
import { createInterface } from 'node:readline';
import { apiPaths, downloadPdfPath } from '@hello/contract';
import { addNews, registerUser } from './fixtures.mjs';
import { runLoad } from './load.mjs';
import { rssBytes } from './memory.mjs';
import { cleanupAll, tempDir } from './processes.mjs';
import { startServer } from './server.mjs';

const rounds = Number(process.env.ROUNDS ?? 6);
const server = await startServer(path.join(tempDir('rounds'), 'data'), { nodeArgs: ['--trace-gc'] });
// A --trace-gc line of a full collection: "… Mark-Compact 38.8 (59.9) -> 23.5 (60.6) MB, …" (used
// heap before, after; committed in brackets).
let fullCollections = 0;
let liveAfterFull = 'none yet';
const readTrace = (/** @type {string} */ text) => {
  for (const match of text.matchAll(/Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/g)) {
    fullCollections += 1;
    liveAfterFull = `${match[1]} MB (heap ${match[2]} MB)`;
  }
};
readTrace(server.tracked.output()); // the collections of the start-up
// Line by line: a trace line split between two chunks of output is still read whole.
if (server.tracked.child.stdout) createInterface({ input: server.tracked.child.stdout }).on('line', readTrace);
try {
  const user = await registerUser(server.url);
  await addNews(server.url, user.refresh, 20);
  /** @type {import('autocannon').Request[]} */
  const requests = [
    { method: 'GET', path: apiPaths.localNews, headers: { authorization: `Bearer ${user.access}` } },
    { method: 'GET', path: downloadPdfPath(3) },
    { method: 'GET', path: '/' },
  ];
  const mb = () => `${((rssBytes(server.pid) ?? NaN) / 1e6).toFixed(1)} MB`;
  const seen = [mb()];
  console.log(`after fixtures: ${seen[0]}`);
  for (let round = 1; round <= rounds; round++) {
    const result = await runLoad({
      url: server.url,
      requests,
      amount: 100_000,
      connections: 10,
      targetPid: server.pid,
    });
    seen.push(mb());
    const heap = `V8 heap after the last full collection: ${liveAfterFull}, ${fullCollections} so far`;
    console.log(`round ${round}: ${seen.at(-1)}; ${heap}${result.problem ? ` (${result.problem})` : ''}`);
  }
  console.log(`RSS: ${seen.join(' → ')}`);
} finally {
  await server.stop();
  await cleanupAll();
}
