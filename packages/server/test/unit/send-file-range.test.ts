import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkBufferStats, sendFileRange } from '../../src/storage/send-file-range.js';

const CHUNK = 64 * 1024;

// A real HTTP server and socket: the buffers' turns depend on real write callbacks.
describe('sendFileRange', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'send-range-'));
  const bytes = randomBytes(3 * CHUNK + 1000);
  const big = randomBytes(16 * 1024 * 1024);
  let server: http.Server;
  let base: string;
  let handle: FileHandle;
  let bigHandle: FileHandle;
  /** What each send ended with: undefined when it finished, else its error. */
  const outcomes: (Error | undefined)[] = [];

  beforeAll(async () => {
    writeFileSync(path.join(dir, 'file.bin'), bytes);
    writeFileSync(path.join(dir, 'big.bin'), big);
    handle = await open(path.join(dir, 'file.bin'), 'r');
    bigHandle = await open(path.join(dir, 'big.bin'), 'r');
    server = http.createServer(async (req, res) => {
      const url = new URL(req.url!, 'http://x');
      const start = Number(url.searchParams.get('start'));
      const end = Number(url.searchParams.get('end'));
      res.writeHead(200, { 'content-length': String(end - start + 1) });
      try {
        await sendFileRange(res, url.pathname === '/big' ? bigHandle : handle, start, end);
        outcomes.push(undefined);
      } catch (error) {
        outcomes.push(error as Error);
        res.destroy();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await handle.close();
    await bigHandle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (start: number, end: number, file = '/file') => {
    const res = await fetch(`${base}${file}?start=${start}&end=${end}`);
    return Buffer.from(await res.arrayBuffer());
  };

  it.each([
    ['the whole file', 0, bytes.length - 1],
    ['one byte', 0, 0],
    ['the last byte', bytes.length - 1, bytes.length - 1],
    ['two bytes across a chunk boundary', CHUNK - 1, CHUNK],
    ['exactly one chunk', CHUNK, 2 * CHUNK - 1],
    ['from the middle to the end', 100, bytes.length - 1],
  ])('sends %s', async (_name, start, end) => {
    expect((await get(start, end)).equals(bytes.subarray(start, end + 1))).toBe(true);
    expect(outcomes.at(-1)).toBeUndefined();
  });

  it('reuses its buffers from one response to the next', async () => {
    await get(0, bytes.length - 1);
    const before = chunkBufferStats().created;
    for (let i = 0; i < 10; i++) expect((await get(0, bytes.length - 1)).equals(bytes)).toBe(true);
    await Promise.all([get(0, bytes.length - 1), get(0, bytes.length - 1)]);
    // Two responses at once need four buffers: at most two more than one response did.
    expect(chunkBufferStats().created - before).toBeLessThanOrEqual(2);
    expect(chunkBufferStats().idle).toBeGreaterThanOrEqual(2);
  });

  it('stops, and lets the next response through, when the client goes away mid-body', async () => {
    const count = outcomes.length;
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/big?start=0&end=${big.length - 1}`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) =>
        error.message.includes('socket hang up') || error.message.includes('aborted') ? resolve() : reject(error),
      );
    });
    await expect.poll(() => outcomes.length, { timeout: 10_000 }).toBe(count + 1);
    expect(outcomes.at(-1)).toBeInstanceOf(Error);
    expect((await get(5, 99_999, '/big')).equals(big.subarray(5, 100_000))).toBe(true);
  });

  it('fails, after what it could send, when the file is shorter than the range', async () => {
    const count = outcomes.length;
    await expect(get(bytes.length - 10, bytes.length + 10)).rejects.toThrow();
    await expect.poll(() => outcomes.length).toBe(count + 1);
    expect(outcomes.at(-1)?.message).toContain(`file ended at byte ${bytes.length}`);
  });
});
