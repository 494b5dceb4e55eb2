// Starts the JSON ceiling (ceiling-server.mjs) in its own process on a free loopback port.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@hello/testkit/ports';
import { startChild, stopChild, tempDir } from './processes.mjs';
import { waitUntilAnswering } from './server.mjs';

/**
 * @param {Buffer} body the exact bytes the product answered
 * @param {string} contentType the product's content-type for them
 */
export async function startCeiling(body, contentType) {
  const dir = tempDir('ceiling');
  const bodyFile = path.join(dir, 'body');
  writeFileSync(bodyFile, body);
  const port = await freePort();
  const script = path.join(import.meta.dirname, 'ceiling-server.mjs');
  const tracked = startChild('ceiling', process.execPath, [script, String(port), bodyFile, contentType]);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(url, tracked.child, { timeoutMs: 10_000 });
  } catch (error) {
    await stopChild(tracked);
    throw new Error(`the ceiling server did not start (${error.message}):\n${tracked.output()}`, { cause: error });
  }
  return { url, pid: /** @type {number} */ (tracked.child.pid), stop: () => stopChild(tracked) };
}
