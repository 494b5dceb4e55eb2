/**
 * A 60-second mixed load on the built server over loopback (`npm run load`): logins, news reads,
 * news writes with two small files, and PDF downloads, each kind from its own autocannon instance,
 * while the server's RSS is sampled every second. Prints requests served per kind, errors (anything
 * but the expected 2xx, plus socket errors and timeouts) and first/peak/last RSS; exits 1 on any error.
 *
 *   npm run load -w @hello/server              # 60 s
 *   LOAD_SECONDS=10 npm run load -w @hello/server
 *
 * Not a test: it is bounded in time (LOAD_SECONDS, at most 600) and in writes (WRITES_PER_SECOND),
 * talks to 127.0.0.1 only, and stops the server it started.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { multipartBody } from '../helpers/multipart-body.js';
import { call, spawnServer } from '../helpers/spawn-server.js';

const SECONDS = Math.min(Math.max(Number(process.env.LOAD_SECONDS ?? 60), 1), 600);
const WRITES_PER_SECOND = 10;
const USERS = 4;
const PASSWORD = 'Load-Test-Password-2026';

interface Result {
  requests: { total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
}

const rssKiB = (pid: number): number =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-load-'));
  // Every login below succeeds, but the limit counts attempts per address before checking them.
  // --trace-gc: the live heap after each full collection, the figure that tells a leak from GC saw-teeth.
  const server = await spawnServer({
    dataDir,
    nodeArgs: ['--trace-gc'],
    env: { RATE_LIMIT_LOGIN: '1000000/60', RATE_LIMIT_REGISTER: '0', LOG_LEVEL: 'warn' },
  });
  try {
    const json = { 'content-type': 'application/json' };
    const users: { email: string; key: string; access: string }[] = [];
    for (let i = 0; i < USERS; i += 1) {
      const email = `load-${i}@example.com`;
      const reg = await call(`${server.url}/api/v1/rest-auth/registration/`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password1: PASSWORD, password2: PASSWORD }),
      });
      const login = await call(`${server.url}/api/v1/token/`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      if (reg.status !== 201 || login.status !== 200)
        throw new Error(`setup failed: registration ${reg.status}, login ${login.status}`);
      users.push({ email, key: reg.json<{ key: string }>().key, access: login.json<{ access: string }>().access });
    }
    const upload = await multipartBody({ title: 'Load test', content: 'A news item written under load.' }, [
      { name: 'notes.txt', bytes: Buffer.from('small text file\n'.repeat(20)) },
      { name: 'data.bin', bytes: Buffer.alloc(2048, 7) },
    ]);

    const base = { url: server.url, duration: SECONDS, timeout: 30 };
    const kinds: Record<string, Promise<Result>> = {
      logins: autocannon({
        ...base,
        connections: 2,
        requests: users.map((u) => ({
          method: 'POST',
          path: '/api/v1/token/',
          headers: json,
          body: JSON.stringify({ email: u.email, password: PASSWORD }),
        })),
      }),
      'news reads': autocannon({
        ...base,
        connections: 4,
        requests: users.map((u) => ({
          method: 'GET',
          path: '/api/v1/localnews/',
          headers: { authorization: `Bearer ${u.access}` },
        })),
      }),
      'news writes': autocannon({
        ...base,
        connections: 1,
        overallRate: WRITES_PER_SECOND,
        requests: users.map((u) => ({
          method: 'POST',
          path: '/api/v1/localnews/new',
          headers: { authorization: `Token ${u.key}`, 'content-type': upload.contentType },
          body: upload.payload,
        })),
      }),
      'PDF downloads': autocannon({
        ...base,
        connections: 4,
        requests: [1, 2, 3].map((id) => ({ method: 'GET', path: `/download_pdf_by_id/${id}` })),
      }),
    };

    const rss: number[] = [rssKiB(server.pid)];
    const sampler = setInterval(() => rss.push(rssKiB(server.pid)), 1000);
    const started = Date.now();
    const results = Object.fromEntries(
      await Promise.all(Object.entries(kinds).map(async ([k, p]) => [k, await p] as const)),
    );
    clearInterval(sampler);
    rss.push(rssKiB(server.pid));

    const mib = (kib: number) => `${(kib / 1024).toFixed(1)} MiB`;
    console.log(
      `\nMixed load for ${((Date.now() - started) / 1000).toFixed(1)} s against ${server.url} (node ${process.version})\n`,
    );
    console.log('kind            served   req/s    2xx  errors  p50 ms  p99 ms');
    let errors = 0;
    for (const [kind, r] of Object.entries(results)) {
      const bad = r.non2xx + r.errors + r.timeouts;
      errors += bad;
      console.log(
        `${kind.padEnd(14)} ${String(r.requests.total).padStart(7)} ${(r.requests.total / SECONDS).toFixed(1).padStart(7)} ${String(r['2xx']).padStart(6)} ${String(bad).padStart(7)} ${String(r.latency.p50).padStart(7)} ${String(r.latency.p99).padStart(7)}`,
      );
    }
    const served = Object.values(results).reduce((n, r) => n + r.requests.total, 0);
    console.log(`\ntotal served ${served}, errors ${errors}`);
    console.log(
      `RSS first ${mib(rss[0]!)}, peak ${mib(Math.max(...rss))}, last ${mib(rss.at(-1)!)} (${rss.length} samples, 1 s apart)`,
    );
    const mid = rss[Math.floor(rss.length / 2)]!;
    console.log(`RSS growth over the second half: ${mib(rss.at(-1)! - mid)}`);
    // The curve in tenths of the run: a leak climbs to the end, warm-up and GC saw-teeth level off.
    const tenths = Array.from(
      { length: 11 },
      (_, i) => rss[Math.min(rss.length - 1, Math.round((i * (rss.length - 1)) / 10))]!,
    );
    console.log(`RSS by tenths of the run: ${tenths.map(mib).join(' ')}`);
    const fullGcs = [...server.output().matchAll(/(\d+) ms: Mark-Compact[^\n]*?-> ([\d.]+) \(/g)].map((m) => ({
      atS: Number(m[1]) / 1000,
      liveMb: Number(m[2]),
    }));
    console.log(
      `V8 heap live after each full GC: ${fullGcs.map((g) => `${g.liveMb} MB at ${g.atS.toFixed(0)} s`).join(', ') || 'none ran'}`,
    );
    process.exitCode = errors === 0 ? 0 : 1;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
