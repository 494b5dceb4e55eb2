import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type PostgresCluster } from '@hello/testkit';
import { apiPaths } from '@hello/contract';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { login } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { bearer, createUser, uniqueEmail } from '../helpers/users.js';

/** /healthz, /readyz and /metrics (docs/api.md, "Operating the product"). */
const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus text format, the sample lines only. */
function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) }; // `NaN` too
    });
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);

describe.each(dialects)('operating the product (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { METRICS_TOKEN, RATE_LIMIT_LOGIN: '3/900' });
  });
  afterAll(() => t.close());

  const scrape = async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return { res, samples: parseMetrics(res.body) };
  };

  it('GET /healthz answers 200 {status: "ok"}, uncached, without credentials; other methods 405', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect((await t.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode).toBe(200);
    const other = await t.app.inject({ method: 'POST', url: '/healthz' });
    expect(other.statusCode).toBe(405);
    expect(other.headers.allow).toBe('GET, HEAD');
  });

  it('GET /readyz answers 200 {status: "ok"} while the database answers, uncached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('GET /readyz reads a table of the schema: 503 while it is missing (select 1 would still pass), 200 once back', async () => {
    const { sql } = await import('kysely');
    await sql`alter table store_identity rename to store_identity_away`.execute(t.app.db);
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'unavailable' });
    } finally {
      await sql`alter table store_identity_away rename to store_identity`.execute(t.app.db);
    }
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('GET /metrics is 401 with WWW-Authenticate without the token, with a wrong one, or in another scheme', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong-token-of-some-length',
      `Token ${METRICS_TOKEN}`,
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN} x`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
      expect(res.json().detail).toEqual(expect.any(String));
    }
  });

  it('GET /metrics with the token answers Prometheus text: process figures, event-loop lag, the outbox', async () => {
    const { res, samples } = await scrape();
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(names, name).toContain(name);
    }
    for (const name of ['mail_outbox_pending', 'mail_outbox_failed', 'mail_outbox_oldest_pending_age_seconds']) {
      expect(Number.isFinite(sum(samples, name)), name).toBe(true);
    }
  });

  it('the outbox gauges count pending and failed mails and the age of the oldest pending one', async () => {
    const before = (await scrape()).samples;
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString(); // not due: the worker leaves it alone
    const row = { recipient: 'ops@example.com', subject: 's', body_text: 'sealed', attempts: 0 };
    await t.app.db
      .insertInto('mail_outbox')
      .values([
        { ...row, created_at: hourAgo, next_attempt_at: tomorrow },
        { ...row, created_at: hourAgo, next_attempt_at: hourAgo, failed_at: hourAgo },
        { ...row, created_at: hourAgo, next_attempt_at: hourAgo, sent_at: hourAgo },
      ])
      .execute();
    const after = (await scrape()).samples;
    expect(sum(after, 'mail_outbox_pending')).toBe(sum(before, 'mail_outbox_pending') + 1);
    expect(sum(after, 'mail_outbox_failed')).toBe(sum(before, 'mail_outbox_failed') + 1);
    expect(sum(after, 'mail_outbox_oldest_pending_age_seconds')).toBeGreaterThanOrEqual(3_590);
  });

  it('counts real traffic: logins by outcome, requests by route pattern and status, rate-limit refusals', async () => {
    const user = await createUser(t);
    expect((await login(t.app, user.email, 'wrong-guess', '203.0.113.60')).statusCode).toBe(401);
    const ok = await login(t.app, user.email, user.password, '203.0.113.61');
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: apiPaths.localNews, headers: bearer(user) })).statusCode).toBe(
      200,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/localnews/987654321/', headers: bearer(user) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-call/5551234' })).statusCode).toBe(404);
    // The fourth failure of one address within the window: 429.
    const ip = '203.0.113.62';
    for (let i = 0; i < 3; i++)
      expect((await login(t.app, uniqueEmail('ops'), 'wrong-guess', ip)).statusCode).toBe(401);
    expect((await login(t.app, uniqueEmail('ops'), 'wrong-guess', ip)).statusCode).toBe(429);

    const { res, samples } = await scrape();
    expect(sum(samples, 'logins_total', { outcome: 'failure' })).toBeGreaterThanOrEqual(4);
    expect(sum(samples, 'logins_total', { outcome: 'success' })).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'logins_total', { outcome: 'throttled' })).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'rate_limit_refusals_total', { limit: 'login' })).toBeGreaterThanOrEqual(1);

    const news = { method: 'GET', route: apiPaths.localNews, status: '200' };
    expect(sum(samples, 'http_requests_total', news)).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'http_request_duration_seconds_count', news)).toBe(sum(samples, 'http_requests_total', news));
    expect(
      sum(samples, 'http_requests_total', { method: 'POST', route: apiPaths.token, status: '429' }),
    ).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    const oneItem = samples.find(
      (s) =>
        s.name === 'http_requests_total' && s.labels.status === '404' && s.labels.route === '/api/v1/localnews/:id/',
    );
    expect(oneItem, 'the one-item route by its pattern').toBeDefined();

    // No label holds a raw id or a path no route has; nothing holds a secret.
    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    for (const raw of ['987654321', '5551234', 'no-such-call'])
      expect(
        labelValues.filter((v) => v.includes(raw)),
        raw,
      ).toEqual([]);
    for (const secret of [
      METRICS_TOKEN,
      user.access,
      user.refresh,
      ok.json<{ access: string }>().access,
      ok.json().refresh,
      user.password,
      'wrong-guess',
    ]) {
      expect(res.body.includes(secret), 'a secret in the metrics').toBe(false);
    }
  });

  it("counts a two-step account's login once its code is right: the password step alone is no success", async () => {
    const user = await createUser(t);
    const as = { authorization: `Bearer ${user.access}` };
    const setup = await t.app.inject({
      method: 'POST',
      url: apiPaths.totpSetup,
      headers: as,
      payload: { password: user.password },
    });
    const { secret } = setup.json<{ secret: string }>();
    const code = () => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const on = await t.app.inject({
      method: 'POST',
      url: apiPaths.totpConfirm,
      headers: as,
      payload: { code: await code() },
    });
    expect(on.statusCode, on.body).toBe(200);
    const outcomes = async () => {
      const { samples } = await scrape();
      return ['success', 'failure', 'throttled'].map((outcome) => sum(samples, 'logins_total', { outcome }));
    };
    const codeStep = (mfa_token: string, value: string) =>
      t.app.inject({
        method: 'POST',
        url: apiPaths.tokenMfa,
        payload: { mfa_token, code: value },
        remoteAddress: '203.0.113.71',
      });

    const before = await outcomes();
    const first = await login(t.app, user.email, user.password, '203.0.113.70');
    expect(first.json()).toMatchObject({ mfa_required: true });
    expect(await outcomes()).toEqual(before);
    const { mfa_token } = first.json<{ mfa_token: string }>();
    expect((await codeStep(mfa_token, '000000')).statusCode).toBe(401);
    expect(await outcomes()).toEqual([before[0], before[1]! + 1, before[2]]);
    // A recovery code: the authenticator's current one was spent turning two-step sign-in on.
    const signedIn = await codeStep(mfa_token, on.json<{ recovery_codes: string[] }>().recovery_codes[0]!);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(await outcomes()).toEqual([before[0]! + 1, before[1]! + 1, before[2]]);
    // Over the limit (3 a window here), the code step is refused and counted as throttled.
    const again = (await login(t.app, user.email, user.password, '203.0.113.72')).json<{ mfa_token: string }>();
    for (let i = 0; i < 2; i++) expect((await codeStep(again.mfa_token, '000000')).statusCode).toBe(401);
    expect((await codeStep(again.mfa_token, '000000')).statusCode).toBe(429);
    expect((await outcomes())[2]).toBe(before[2]! + 1);
  });

  it('counts each answer once, under its route pattern; a 405 under "unmatched"', async () => {
    const user = await createUser(t);
    const oneItem = { method: 'GET', route: '/api/v1/localnews/:id/', status: '404' };
    const refused = { method: 'POST', route: 'unmatched', status: '405' };
    const badUrl = { method: 'GET', route: 'unmatched', status: '404' };
    const before = (await scrape()).samples;
    for (const id of [987654321, 987654322, 987654323]) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/localnews/${id}/`, headers: bearer(user) });
      expect(res.statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'POST', url: '/healthz' })).statusCode).toBe(405);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/localnews/%c0%ae/' })).statusCode).toBe(404);
    const after = (await scrape()).samples;
    const added = (labels: Record<string, string>) =>
      sum(after, 'http_requests_total', labels) - sum(before, 'http_requests_total', labels);
    expect(added(oneItem)).toBe(3);
    expect(sum(after, 'http_request_duration_seconds_count', oneItem)).toBe(sum(after, 'http_requests_total', oneItem));
    expect(added(refused)).toBe(1);
    // A URL that does not decode is answered before routing, hooks and all: not counted (docs/api.md).
    expect(added(badUrl)).toBe(0);
  });

  it('GET /metrics itself is counted, and not by its token', async () => {
    await scrape();
    const { res, samples } = await scrape();
    expect(sum(samples, 'http_requests_total', { route: '/metrics', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(res.body).not.toContain(METRICS_TOKEN);
  });

  it('the OpenAPI description lists the three calls under "ops"; /metrics answers text/plain', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: apiPaths.openapi })).json();
    for (const p of ['/healthz', '/readyz', '/metrics']) expect(doc.paths[p].get.tags).toEqual(['ops']);
    expect(Object.keys(doc.paths['/metrics'].get.responses['200'].content)).toEqual(['text/plain']);
    expect(doc.paths['/metrics'].get.security).toEqual([{ metrics: [] }]);
    expect(Object.keys(doc.paths['/readyz'].get.responses)).toEqual(expect.arrayContaining(['200', '503']));
  });
});

describe.each(dialects)('GET /metrics without METRICS_TOKEN (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  it("is the API's JSON 404, even with a token", async () => {
    for (const headers of [{}, { authorization: `Bearer ${METRICS_TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('refuses a METRICS_TOKEN under 16 characters at start-up, without repeating it', () => {
    let message = '';
    try {
      loadConfig({ DATA_DIR: t.dataDir, METRICS_TOKEN: 'tiny-tok' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/METRICS_TOKEN: must be at least 16 characters/);
    expect(message).not.toContain('tiny-tok');
  });
});

/**
 * /readyz while the database is away. PostgreSQL only: a cluster of its own is stopped, and frozen
 * (SIGSTOP), under a running app. SQLite is a file the process itself opens; there is no server to
 * go away, and `select 1` on an open SQLite connection cannot fail short of the process failing.
 */
const withPostgres = dialects.filter((dialect) => dialect === 'postgres');
describe.each(withPostgres)('GET /readyz while PostgreSQL is away (%s)', () => {
  let cluster: PostgresCluster;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    cluster = await startPostgres();
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-readyz-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      DATABASE_URL: cluster.url,
      METRICS_TOKEN,
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
    });
    app = await buildApp(config, { logStream: { write: (line) => void lines.push(line) } });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await cluster?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const readyz = async () => {
    const started = Date.now();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json(), took: Date.now() - started };
  };
  /** /readyz, asked every 250 ms for up to 30 s until it has come back. */
  const untilReady = () => expect.poll(readyz, { timeout: 30_000, interval: 250 });

  it('answers 503 {status: "unavailable"} while PostgreSQL is stopped, and 200 again by itself once it is back', async () => {
    expect((await readyz()).status).toBe(200);
    await cluster.stop({ keepData: true });
    const down = await readyz();
    expect(down).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    expect(down.took).toBeLessThan(3_000);
    // /healthz says the process serves; /metrics still answers, its outbox gauges NaN for now.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const metrics = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(parseMetrics(metrics.body).find((s) => s.name === 'mail_outbox_pending')?.value).toBeNaN();

    await cluster.start();
    await untilReady().toMatchObject({ status: 200, body: { status: 'ok' } });
    const logged = lines.join('');
    expect(logged).toContain('readiness: the database does not answer');
    expect(logged).toContain('readiness: the database answers again');
    expect(logged).not.toContain(METRICS_TOKEN);
  }, 120_000);

  it('answers 503 within its 2 s bound while PostgreSQL hangs (SIGSTOP), then 200', async () => {
    cluster.pause();
    try {
      const hung = await readyz();
      expect(hung).toMatchObject({ status: 503, body: { status: 'unavailable' } });
      expect(hung.took).toBeGreaterThanOrEqual(1_900);
      expect(hung.took).toBeLessThan(4_000);
    } finally {
      cluster.resume();
    }
    await untilReady().toMatchObject({ status: 200 });
  }, 120_000);
});
