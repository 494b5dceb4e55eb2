import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { call, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

interface Tokens {
  access: string;
  refresh: string;
}

/**
 * docs/api.md, "What is never lost": passwords only as argon2id at OWASP's cost or more in the DEFAULT
 * configuration, reset tokens only as hashes, and neither (nor any token) in the log.
 */
const json = (body: unknown) =>
  ({ method: 'POST', headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) }) as const;

function argon2Params(hash: string) {
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
  if (!m) throw new Error(`not an argon2id hash: ${hash.slice(0, 30)}`);
  return { m: Number(m[1]), t: Number(m[2]), p: Number(m[3]) };
}

/** Every text value of every table, to look for a secret anywhere in the database. */
async function everyValue(t: TestApp): Promise<string[]> {
  const values: string[] = [];
  for (const table of await t.app.db.introspection.getTables()) {
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(t.app.db);
    for (const row of rows) for (const v of Object.values(row)) if (v !== null) values.push(String(v));
  }
  return values;
}

describe.each(dialects)('password storage (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // '' unsets buildTestApp's cheap hashing: the defaults of config.ts apply, as in production.
    t = await buildTestApp(dialect, { ARGON2_MEMORY_KIB: '', ARGON2_TIME_COST: '' });
  });
  afterAll(() => t?.close());

  it('stores argon2id with m >= 19456 KiB and t >= 2 for registration, password change and reset', async () => {
    expect(t.config.argon2).toEqual({ memoryKiB: 19_456, timeCost: 2 });
    const email = 'storage@example.com';
    const reg = await t.app.inject({
      url: '/api/v1/rest-auth/registration/',
      ...json({ email, password1: 'Plum-Orchard-1987', password2: 'Plum-Orchard-1987' }),
    });
    expect(reg.statusCode, reg.body).toBe(201);
    const hashOf = async () =>
      (
        await t.app.db
          .selectFrom('users')
          .select('password_hash')
          .where('email_key', '=', email)
          .executeTakeFirstOrThrow()
      ).password_hash;
    const hashes = [await hashOf()];

    const login = await t.app.inject({ url: '/api/v1/token/', ...json({ email, password: 'Plum-Orchard-1987' }) });
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/changepassword/',
      headers: {
        authorization: `Bearer ${login.json<{ access: string }>().access}`,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({
        old_password: 'Plum-Orchard-1987',
        new_password: 'Quince-Harbour-2044',
        confirm: 'Quince-Harbour-2044',
      }),
    });
    expect(change.statusCode, change.body).toBe(200);
    hashes.push(await hashOf());

    const token = await requestReset(email);
    const confirm = await t.app.inject({
      url: '/api/password_reset/confirm/',
      ...json({ token, password: 'Rowan-Meadow-3311', confirm: 'Rowan-Meadow-3311' }),
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    hashes.push(await hashOf());

    expect(new Set(hashes).size).toBe(3);
    for (const hash of hashes) {
      const { m, t: time } = argon2Params(hash);
      expect(m).toBeGreaterThanOrEqual(19_456);
      expect(time).toBeGreaterThanOrEqual(2);
      for (const pw of ['Plum-Orchard-1987', 'Quince-Harbour-2044', 'Rowan-Meadow-3311'])
        expect(hash).not.toContain(pw);
    }
  });

  /** Asks for a reset and reads the token from the mail the file transport wrote. */
  async function requestReset(email: string): Promise<string> {
    const res = await t.app.inject({
      url: '/api/password_reset/',
      ...json({ email, reset_new_password_path: '/resetnewpassword' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const mailDir = path.join(t.dataDir, 'mail');
    for (let i = 0; i < 200; i += 1) {
      const files = existsSync(mailDir)
        ? readdirSync(mailDir, { recursive: true })
            .map(String)
            .filter((f) => f.endsWith('.eml'))
        : [];
      for (const f of files.sort().reverse()) {
        const text = readFileSync(path.join(mailDir, f), 'utf8').replace(/=\r?\n/g, '');
        const token = /\?token=3D([A-Za-z0-9_-]+)|\?token=([A-Za-z0-9_-]+)/.exec(text);
        if (token && text.includes(email)) return (token[1] ?? token[2])!;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('no reset mail was written');
  }

  it('keeps reset tokens only as hashes: once the mail is out, no column holds the mailed token', async () => {
    const email = 'reset-hash@example.com';
    expect(
      (
        await t.app.inject({
          url: '/api/v1/rest-auth/registration/',
          ...json({ email, password1: 'Sloe-Gin-Winter-77', password2: 'Sloe-Gin-Winter-77' }),
        })
      ).statusCode,
    ).toBe(201);
    const token = await requestReset(email);
    // 128 bits or more: at least 22 base64url characters.
    expect(token.length).toBeGreaterThanOrEqual(22);
    const valid = await t.app.inject({ url: '/api/password_reset/validate_token/', ...json({ token }) });
    expect(valid.json()).toEqual({ status: 'OK' });
    const rows = await t.app.db.selectFrom('password_reset_tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    const values = await everyValue(t);
    expect(values.filter((v) => v.includes(token))).toEqual([]);
  });
});

describe('the log holds no password or token', () => {
  let dataDir: string;
  let peer: SmtpPeer;
  let server: SpawnedServer;
  const secretKey = 'log-test-secret-key-0123456789abcdefghijklmnop';
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-log-'));
    peer = await startSmtpPeer();
    // SMTP configured: without it the server prints reset links by design (docs/api.md, "Password reset").
    server = await spawnServer({
      dataDir,
      env: {
        LOG_LEVEL: 'info',
        SMTP_URL: peer.url,
        SECRET_KEY: secretKey,
        ARGON2_MEMORY_KIB: '1024',
        ARGON2_TIME_COST: '1',
      },
    });
  });
  afterAll(async () => {
    await server?.kill();
    await peer?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs requests, and none of the passwords, tokens or the secret key that went through them', async () => {
    const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
      call(server.url + url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const email = 'logged@example.com';
    const secrets = ['Tangerine-Lamp-4471', 'Umber-Kite-Rising-9', 'Velvet-Quarry-0612', secretKey];
    expect(
      (await post('/api/v1/rest-auth/registration/', { email, password1: secrets[0], password2: secrets[0] })).status,
    ).toBe(201);
    const login = (await post('/api/v1/token/', { email, password: secrets[0] })).json<Tokens>();
    secrets.push(login.access, login.refresh);
    secrets.push((await post('/api/v1/token/refresh/', { refresh: login.refresh })).json<{ access: string }>().access);
    await post('/api/v1/token/', { email, password: 'Wrong-Password-Guess-1' });
    secrets.push('Wrong-Password-Guess-1');
    // A body that does not parse: the parser's message must not carry the password into the log.
    await call(`${server.url}/api/v1/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"email":"${email}","password":"${secrets[0]}"`,
    });
    const form = new URLSearchParams({ username: email, password: secrets[0]! });
    secrets.push(
      (await call(`${server.url}/api/v1/rest-auth/api-token-auth/`, { method: 'POST', body: form })).json<{
        token: string;
      }>().token,
    );
    const auth = { authorization: `Bearer ${login.access}` };
    expect((await call(`${server.url}/api/v1/user/profile/`, { headers: auth })).status).toBe(200);
    const change = await call(`${server.url}/api/v1/users/changepassword/`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ old_password: secrets[0], new_password: secrets[1], confirm: secrets[1] }),
    });
    expect(change.status).toBe(200);
    secrets.push(change.json<{ refresh: string }>().refresh);

    const since = peer.messages.length;
    expect((await post('/api/password_reset/', { email, reset_new_password_path: '/resetnewpassword' })).status).toBe(
      200,
    );
    const mail = await peer.waitForMail({ to: email, since, subject: 'Reset your password' });
    const token = /token=([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
    expect(token).toBeTruthy();
    secrets.push(token!);
    await call(`${server.url}/resetnewpassword?token=${token}`);
    expect((await post('/api/password_reset/validate_token/', { token })).status).toBe(200);
    expect(
      (await post('/api/password_reset/confirm/', { token, password: secrets[2], confirm: secrets[2] })).status,
    ).toBe(200);
    await post('/api/password_reset/confirm/', { token, password: secrets[2], confirm: secrets[2] });

    // The account center: an e-mail change's link token, its password, and a deletion's password.
    const again = (await post('/api/v1/token/', { email, password: secrets[2] })).json<Tokens>();
    secrets.push(again.access, again.refresh);
    const bearer = { authorization: `Bearer ${again.access}` };
    const moved = 'moved-logged@example.com';
    const since2 = peer.messages.length;
    expect((await post('/api/v1/user/email/', { new_email: moved, password: secrets[2] }, bearer)).status).toBe(200);
    const link = await peer.waitForMail({ to: moved, since: since2 });
    const emailToken = /token=([A-Za-z0-9_-]+)/.exec(link.text)?.[1];
    expect(emailToken).toBeTruthy();
    secrets.push(emailToken!);
    expect((await post('/api/v1/user/email/confirm/', { token: emailToken })).status).toBe(200);
    expect((await call(`${server.url}/api/v1/user/sessions/`, { headers: bearer })).status).toBe(200);
    await post('/api/v1/user/delete/', { password: 'Wrong-Delete-Guess-2' }, bearer);
    secrets.push('Wrong-Delete-Guess-2');
    await call(`${server.url}/api/v1/rest-auth/logout/`, {
      method: 'POST',
      headers: { authorization: `Token ${login.refresh}` },
    });

    await new Promise((r) => setTimeout(r, 300)); // let the last log lines reach the pipe
    const log = server.output();
    expect(log.match(/incoming request/g)?.length ?? 0).toBeGreaterThan(10);
    expect(log).toContain('/api/password_reset/confirm/');
    expect(log).toContain('/api/v1/user/email/confirm/');
    expect(
      secrets.filter((s) => log.includes(s)),
      'secrets found in the log',
    ).toEqual([]);
  });
});
