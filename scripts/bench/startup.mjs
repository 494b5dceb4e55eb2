// Start-up time: from spawning `node packages/server/dist/server.js` to its first answered request
// (GET /api/openapi.json polled every 10 ms; any HTTP answer counts).
// Cold: an empty DATA_DIR each time (secret generated, migrations run, demo PDFs seeded).
// Warm: the same DATA_DIR again (everything already there).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '@hello/testkit/ports';
import { startChild, stopChild, tempDir } from './processes.mjs';
import { startServer, waitUntilAnswering } from './server.mjs';
import { median } from './stats.mjs';

/** A new, empty DATA_DIR inside its own temporary directory (the server's cwd is its parent). */
export function freshDataDir() {
  return path.join(tempDir('data'), 'data');
}

/**
 * Cold starts, each on a fresh DATA_DIR; the last DATA_DIR is returned for the warm starts.
 * @param {number} count
 * @returns {Promise<{ runs: number[], median: number, dataDir: string, firstStatus: number }>}
 */
export async function measureColdStarts(count) {
  const runs = [];
  let dataDir = '';
  let firstStatus = 0;
  for (let i = 0; i < count; i++) {
    dataDir = freshDataDir();
    const server = await startServer(dataDir, { label: `cold start ${i + 1}` });
    runs.push(server.readyMs);
    firstStatus = server.firstStatus;
    await server.stop();
  }
  return { runs, median: median(runs), dataDir, firstStatus };
}

/**
 * Warm starts over `dataDir`; every server is stopped except the last, which is returned running
 * (the rest of the benchmark uses it).
 * @param {string} dataDir
 * @param {number} count
 */
export async function measureWarmStarts(dataDir, count) {
  const runs = [];
  let server;
  for (let i = 0; i < count; i++) {
    if (server) await server.stop();
    server = await startServer(dataDir, { label: `warm start ${i + 1}` });
    runs.push(server.readyMs);
  }
  return { runs, median: median(runs), server };
}

/**
 * The floor for comparison: the same measurement for a bare `node:http` server (node's own start-up,
 * nothing loaded), median of `count`.
 * @param {number} count
 */
export async function measureBareStarts(count) {
  const runs = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const code = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
    const started = performance.now();
    const tracked = startChild('bare node start', process.execPath, ['-e', code]);
    try {
      await waitUntilAnswering(`http://127.0.0.1:${port}/`, tracked.child, { timeoutMs: 20_000 });
      runs.push(performance.now() - started);
    } finally {
      await stopChild(tracked);
    }
  }
  return { runs, median: median(runs) };
}
