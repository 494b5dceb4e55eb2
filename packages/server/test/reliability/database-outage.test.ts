import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres, type PostgresCluster } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/build.js';
import { call, spawnServer, type HttpAnswer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * The database going away (docs/api.md, "Errors": 503): PostgreSQL stopped under a running server.
 * Calls answer 503 JSON `service_unavailable` promptly, the process stays up, and once PostgreSQL is
 * back the server recovers by itself. A cluster of its own, so no other suite loses its database.
 */
const PROMPT_MS = 7_000; // pg's connect timeout is 5 s: no call may hang longer than that and a bit
const email = 'outage@example.com';
const password = 'Outage-Password-2026';

describe.runIf(dialects.includes('postgres'))('database outage (postgres)', () => {
  let cluster: PostgresCluster;
  let server: SpawnedServer;
  let dataDir: string;
  let access: string;
  let refresh: string;

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    call(server.url + url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      timeoutMs: 20_000,
    });
  const outageCalls: [string, () => Promise<HttpAnswer>][] = [
    ['login', () => post('/api/v1/token/', { email, password })],
    ['refresh', () => post('/api/v1/token/refresh/', { refresh })],
    [
      'registration',
      () =>
        post('/api/v1/rest-auth/registration/', { email: 'new@example.com', password1: password, password2: password }),
    ],
    [
      'news list',
      () =>
        call(`${server.url}/api/v1/localnews/`, { headers: { authorization: `Bearer ${access}` }, timeoutMs: 20_000 }),
    ],
    [
      'profile',
      () =>
        call(`${server.url}/api/v1/user/profile/`, {
          headers: { authorization: `Bearer ${access}` },
          timeoutMs: 20_000,
        }),
    ],
    ['reset request', () => post('/api/password_reset/', { email, reset_new_password_path: '/resetnewpassword' })],
    ['logout', () => post('/api/v1/rest-auth/logout/', {}, { authorization: `Token ${refresh}` })],
  ];

  beforeAll(async () => {
    cluster = await startPostgres();
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-outage-'));
    server = await spawnServer({
      dataDir,
      env: { DATABASE_URL: cluster.url, ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' },
    });
    expect(
      (await post('/api/v1/rest-auth/registration/', { email, password1: password, password2: password })).status,
    ).toBe(201);
    const login = await post('/api/v1/token/', { email, password });
    expect(login.status).toBe(200);
    ({ access, refresh } = login.json());
  }, 60_000);
  afterAll(async () => {
    await server?.kill();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 503 service_unavailable promptly while PostgreSQL is down, stays up, and recovers by itself', async () => {
    await cluster.stop({ keepData: true });
    const wrong: string[] = [];
    for (const [name, make] of outageCalls) {
      const started = Date.now();
      const res = await make();
      const took = Date.now() - started;
      const isJson = res.headers.get('content-type')?.startsWith('application/json');
      const body = isJson ? res.json<{ code?: unknown; detail?: unknown }>() : undefined;
      if (
        res.status !== 503 ||
        body?.code !== 'service_unavailable' ||
        typeof body?.detail !== 'string' ||
        took > PROMPT_MS
      ) {
        wrong.push(`${name}: ${res.status} ${isJson ? JSON.stringify(body) : res.body.toString()} in ${took} ms`);
      }
    }
    expect(wrong).toEqual([]);
    // Background work (the mail outbox, the rate-limit pruner) meets the outage too: still up.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(server.child.exitCode, server.output()).toBeNull();

    await cluster.start();
    await expect
      .poll(async () => (await post('/api/v1/token/', { email, password })).status, {
        message: 'login after PostgreSQL came back',
        timeout: 30_000,
        interval: 250,
      })
      .toBe(200);
    const news = await call(`${server.url}/api/v1/localnews/`, { headers: { authorization: `Bearer ${access}` } });
    expect(news.status).toBe(200);
    expect(server.child.exitCode).toBeNull();
  }, 120_000);

  it('answers 503 within the connect timeout while PostgreSQL hangs (SIGSTOP), then recovers', async () => {
    cluster.pause();
    try {
      const started = Date.now();
      const res = await post('/api/v1/token/', { email, password });
      const took = Date.now() - started;
      expect(res.status, res.body.toString()).toBe(503);
      expect(res.json<{ code: string }>().code).toBe('service_unavailable');
      expect(took).toBeLessThan(PROMPT_MS + 5_000);
    } finally {
      cluster.resume();
    }
    await expect
      .poll(async () => (await post('/api/v1/token/', { email, password })).status, { timeout: 30_000, interval: 250 })
      .toBe(200);
  }, 120_000);
});
