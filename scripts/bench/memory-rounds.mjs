#!/usr/bin/env node
// Memory over many rounds, beyond the benchmark's three: the product (as `npm run bench` starts it)
// with its fixtures, then ROUNDS (default 6) rounds of 100,000 mixed requests (news list, PDF 3, the
// home page), printing the server's RSS after each. Whether RSS trends upward shows here; a single
// round-to-round difference is mostly when the garbage collector last ran.
//   node scripts/bench/memory-rounds.mjs            ROUNDS=10 node scripts/bench/memory-rounds.mjs
import path from 'node:path';
import { apiPaths, downloadPdfPath } from '@hello/contract';
import { addNews, registerUser } from './fixtures.mjs';
import { runLoad } from './load.mjs';
import { rssBytes } from './memory.mjs';
import { cleanupAll, tempDir } from './processes.mjs';
import { startServer } from './server.mjs';

const rounds = Number(process.env.ROUNDS ?? 6);
const server = await startServer(path.join(tempDir('rounds'), 'data'));
try {
  const user = await registerUser(server.url);
  await addNews(server.url, user.refresh, 20);
  const requests = [
    { method: 'GET', path: apiPaths.localNews, headers: { authorization: `Bearer ${user.access}` } },
    { method: 'GET', path: downloadPdfPath(3) },
    { method: 'GET', path: '/' },
  ];
  const mb = () => `${((rssBytes(server.pid) ?? NaN) / 1e6).toFixed(1)} MB`;
  const seen = [mb()];
  console.log(`after fixtures: ${seen[0]}`);
  for (let round = 1; round <= rounds; round++) {
    const result = await runLoad({ url: server.url, requests, amount: 100_000, connections: 10, targetPid: server.pid });
    seen.push(mb());
    console.log(`round ${round}: ${seen.at(-1)}${result.problem ? ` (${result.problem})` : ''}`);
  }
  console.log(`RSS: ${seen.join(' → ')}`);
} finally {
  await server.stop();
  await cleanupAll();
}
