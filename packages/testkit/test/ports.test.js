// @ts-check
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../ports.js';

describe('freePort', () => {
  it('returns a port that can be listened on at once', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(1023);
    const server = createServer();
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve(undefined));
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('returns different ports for concurrent callers', async () => {
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    expect(new Set(ports).size).toBe(3);
  });
});
