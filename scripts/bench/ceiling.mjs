// Starts the JSON ceiling (ceiling-server.mjs) in its own process on a free loopback port.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@hello/testkit/ports';
import { startChild, stopChild, tempDir } from './processes.mjs';
import { waitUntilAnswering } from './server.mjs';

/** Headers node:http writes by itself on every answer, the product's included. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * @param {Buffer} body the exact bytes the product answered
 * @param {Record<string, string>} headers the product's headers with them (`bodyOnly`: just its content-type)
 * @param {{ bodyOnly?: boolean }} options
 */
export async function startCeiling(body, headers, { bodyOnly = false } = {}) {
  const dir = tempDir('ceiling');
  const bodyFile = path.join(dir, 'body');
  const headersFile = path.join(dir, 'headers.json');
  const replayed = bodyOnly
    ? { 'content-type': headers['content-type'] }
    : Object.fromEntries(Object.entries(headers).filter(([name]) => !CONNECTION_HEADERS.has(name)));
  writeFileSync(bodyFile, body);
  writeFileSync(headersFile, JSON.stringify(replayed));
  const port = await freePort();
  const script = path.join(import.meta.dirname, 'ceiling-server.mjs');
  const tracked = startChild('ceiling', process.execPath, [script, String(port), bodyFile, headersFile]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, tracked.child, { timeoutMs: 10_000 });
  } catch (error) {
    await stopChild(tracked);
    throw new Error(
      `the ceiling server did not start (${/** @type {Error} */ (error).message}):\n${tracked.output()}`,
      { cause: error },
    );
  }
  return { url, pid: /** @type {number} */ (tracked.child.pid), stop: () => stopChild(tracked) };
}
