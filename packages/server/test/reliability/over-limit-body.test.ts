import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_BYTES, LINGER_MS } from '../../src/lingering-close.js';
import { sendBody, type SentBody } from '../helpers/body-sender.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * A body over MAX_BODY_BYTES (1 MiB by default) gets its 413 answer even while the client is still
 * sending it (docs/api.md, "Limits"). The server answers at once, then reads and discards the rest (up to a bound)
 * before it closes: closing with the body still arriving would make the kernel reset the connection
 * (EPIPE or ECONNRESET at the client), often before the client had read the answer. Through a real
 * listening server and raw sockets, as a client writes: the body in 64 KiB chunks, no waiting.
 * What it reads is bounded (src/lingering-close.ts): a client that would send for ever is cut off.
 */
const REQUESTS = 100;
const BODY = Buffer.from(JSON.stringify({ email: 'someone@example.com', password: 'x'.repeat(2 * 1024 * 1024) }));
const TOO_LARGE = { detail: 'Request body is too large.' };

const outcome = (sent: SentBody) => `${sent.status} ${sent.errors.join(',') || 'clean'}`;

describe('an over-limit body while the client is still sending it', () => {
  let server: SpawnedServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-413-'));
    server = await spawnServer({ dataDir });
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['content-length', 'chunked'] as const)(
    `answers ${REQUESTS} 2 MiB JSON bodies in a row with 413, never a reset (%s)`,
    async (framing) => {
      const started = Date.now();
      const outcomes: string[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const sent = await sendBody({ port: server.port, path: '/api/v1/token/', body: BODY, framing });
        outcomes.push(outcome(sent));
        if (sent.status === 413) {
          expect(JSON.parse(sent.body)).toEqual(TOO_LARGE);
          expect(sent.headers.connection).toBe('close');
        }
      }
      const tally = new Map<string, number>();
      for (const o of outcomes) tally.set(o, (tally.get(o) ?? 0) + 1);
      const counts = [...tally].map(([o, n]) => `${n}× ${o}`).join('; ');
      expect(counts).toBe(`${REQUESTS}× 413 clean`);
      console.info(
        `over-limit-body (${framing}): ${REQUESTS} requests of ${BODY.length} bytes, all 413, in ${Date.now() - started} ms`,
      );
    },
    120_000,
  );

  it(`stops discarding after some ${LINGER_BYTES / 1024 / 1024} MiB: a body that never ends is cut off, after its 413`, async () => {
    const endless = Buffer.alloc(32 * 1024 * 1024, ' ');
    const sent = await sendBody({ port: server.port, path: '/api/v1/token/', body: endless, declaredLength: 2 ** 30 });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toEqual(TOO_LARGE);
    // Cut off: what the socket buffers on both sides hold is all it wrote beyond the bound.
    expect(sent.errors.filter((e) => e !== 'EPIPE' && e !== 'ECONNRESET')).toEqual([]);
    expect(sent.errors.length).toBeGreaterThan(0);
    expect(sent.written).toBeLessThan(endless.length);
    console.info(`over-limit-body: an endless body was cut off after ${(sent.written / 1024 / 1024).toFixed(1)} MiB`);
  });

  it(`gives a slow client ${LINGER_MS / 1000} s to finish, then closes`, async () => {
    const sent = await sendBody({ port: server.port, path: '/api/v1/token/', body: BODY, trickleAfter: 64 * 1024 });
    expect(sent.status).toBe(413);
    expect(JSON.parse(sent.body)).toEqual(TOO_LARGE);
    expect(sent.errors.filter((e) => e !== 'EPIPE' && e !== 'ECONNRESET')).toEqual([]);
    expect(sent.tookMs).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(sent.tookMs).toBeLessThan(LINGER_MS + 3000);
  });

  it('still serves on that address afterwards', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
  });
});
