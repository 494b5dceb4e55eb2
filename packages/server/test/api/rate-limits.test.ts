import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { login, post, register, goodPassword } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { bearer, createUser, uniqueEmail, type TestUser } from '../helpers/users.js';

const address = (i: number) => `198.51.100.${i + 1}`;

/** docs/api.md, "Limits": counted per account and per client address, in the database. */
describe.each(dialects)('rate limits (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { RATE_LIMIT_REGISTER: '3/3600' });
  });
  afterAll(() => t.close());

  const ownCall = (user: TestUser, method: 'POST' | 'PUT', url: string, payload: object, remoteAddress: string) =>
    t.app.inject({ method, url, headers: bearer(user), payload, remoteAddress });

  it('the 11th failed login for one account is 429 with Retry-After, even from rotating addresses', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 10; i++)
      expect((await login(t.app, user.email, 'wrong-guess', address(i))).statusCode).toBe(401);
    const res = await login(t.app, user.email.toUpperCase(), user.password, address(50));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'throttled' });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
  });

  it('counts failed logins per address across accounts, and an unknown account like a known one', async () => {
    const ip = '203.0.113.7';
    for (let i = 0; i < 10; i++)
      expect((await login(t.app, uniqueEmail('guess'), 'wrong-guess', ip)).statusCode).toBe(401);
    expect((await login(t.app, uniqueEmail('guess'), 'wrong-guess', ip)).statusCode).toBe(429);
    expect((await login(t.app, uniqueEmail('guess'), 'wrong-guess', '203.0.113.8')).statusCode).toBe(401);
  });

  it('counts IPv6 clients by their /64 network', async () => {
    for (let i = 1; i <= 10; i++)
      expect((await login(t.app, uniqueEmail('v6'), 'wrong-guess', `2001:db8:1:2::${i.toString(16)}`)).statusCode).toBe(
        401,
      );
    expect((await login(t.app, uniqueEmail('v6'), 'wrong-guess', '2001:db8:1:2:ffff::1')).statusCode).toBe(429);
    expect((await login(t.app, uniqueEmail('v6'), 'wrong-guess', '2001:db8:1:3::1')).statusCode).toBe(401);
  });

  it('does not count successful logins', async () => {
    const user = await createUser(t);
    for (let i = 0; i < 12; i++)
      expect((await login(t.app, user.email, user.password, '203.0.113.20')).statusCode).toBe(200);
  });

  it('applies the login limit to api-token-auth too', async () => {
    const user = await createUser(t);
    const attempt = () =>
      post(
        t.app,
        apiPaths.apiTokenAuth,
        { username: user.email, password: 'wrong-guess' },
        { remoteAddress: '203.0.113.30' },
      );
    for (let i = 0; i < 10; i++) expect((await attempt()).statusCode).toBe(400);
    expect((await attempt()).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For without TRUST_PROXY', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await post(
        t.app,
        apiPaths.token,
        { email: uniqueEmail(), password: 'wrong-guess' },
        { remoteAddress: '203.0.113.40', headers: { 'x-forwarded-for': address(i) } },
      );
      expect(res.statusCode).toBe(401);
    }
    const res = await post(
      t.app,
      apiPaths.token,
      { email: uniqueEmail(), password: 'x' },
      { remoteAddress: '203.0.113.40', headers: { 'x-forwarded-for': address(99) } },
    );
    expect(res.statusCode).toBe(429);
  });

  it('limits reset requests per account (6th is 429) and per address', async () => {
    const email = uniqueEmail('reset');
    const reset = (ip: string, to = email) =>
      post(t.app, apiPaths.passwordReset, { email: to, reset_new_password_path: '/r' }, { remoteAddress: ip });
    for (let i = 0; i < 5; i++) expect((await reset(address(100 + i))).statusCode).toBe(200);
    const over = await reset(address(120));
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 5; i++) expect((await reset('203.0.113.50', uniqueEmail())).statusCode).toBe(200);
    expect((await reset('203.0.113.50', uniqueEmail())).statusCode).toBe(429);
  });

  it("strangers' failed logins and reset requests do not lock a signed-in owner out of the remedies", async () => {
    const owner = await createUser(t);
    for (let i = 0; i < 10; i++)
      expect((await login(t.app, owner.email, 'wrong-guess', address(130 + i))).statusCode).toBe(401);
    expect((await login(t.app, owner.email, owner.password, address(141))).statusCode).toBe(429);
    for (let i = 0; i < 5; i++)
      expect(
        (
          await post(
            t.app,
            apiPaths.passwordReset,
            { email: owner.email, reset_new_password_path: '/r' },
            { remoteAddress: address(150 + i) },
          )
        ).statusCode,
      ).toBe(200);
    const ownerAt = '203.0.113.90';
    const setUp = await ownCall(owner, 'POST', apiPaths.totpSetup, { password: owner.password }, ownerAt);
    expect(setUp.statusCode).toBe(200);
    const email = await ownCall(
      owner,
      'POST',
      apiPaths.changeEmail,
      { new_email: uniqueEmail('moved'), password: owner.password },
      ownerAt,
    );
    expect(email.statusCode).toBe(200);
    const next = goodPassword();
    const change = await ownCall(
      owner,
      'PUT',
      apiPaths.changePassword,
      { old_password: owner.password, new_password: next, confirm: next },
      ownerAt,
    );
    expect(change.statusCode).toBe(200);
  });

  it("a signed-in user's wrong passwords count as failed logins, and their own 11th is 429", async () => {
    const user = await createUser(t);
    const wrong = () => ownCall(user, 'POST', apiPaths.deleteAccount, { password: 'wrong-guess' }, address(170));
    for (let i = 0; i < 10; i++) expect((await wrong()).statusCode).toBe(400);
    expect((await wrong()).statusCode).toBe(429);
    // The account's count took them too: a login with the right password is refused for the window.
    expect((await login(t.app, user.email, user.password, address(171))).statusCode).toBe(429);
  });

  it('limits registrations per address (RATE_LIMIT_REGISTER=3/3600)', async () => {
    for (let i = 0; i < 3; i++)
      expect((await register(t.app, uniqueEmail(), goodPassword(), '203.0.113.60')).statusCode).toBe(201);
    expect((await register(t.app, uniqueEmail(), goodPassword(), '203.0.113.60')).statusCode).toBe(429);
    expect((await register(t.app, uniqueEmail(), goodPassword(), '203.0.113.61')).statusCode).toBe(201);
  });

  it('shares the counts between server instances on one database', async () => {
    const second = await buildApp(t.config);
    try {
      const user = await createUser(t);
      for (let i = 0; i < 5; i++)
        expect((await login(t.app, user.email, 'wrong-guess', address(i))).statusCode).toBe(401);
      for (let i = 0; i < 5; i++)
        expect((await login(second, user.email, 'wrong-guess', address(i))).statusCode).toBe(401);
      expect((await login(second, user.email, user.password, address(9))).statusCode).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('prunes counters of windows that are over', async () => {
    await t.app.db.insertInto('rate_limits').values({ key: 'login:ip:old', window_start: 1000, hits: 3 }).execute();
    expect(await t.app.rateLimits.prune()).toBeGreaterThanOrEqual(1);
    const left = await t.app.db.selectFrom('rate_limits').select('key').where('key', '=', 'login:ip:old').execute();
    expect(left).toEqual([]);
  });
});

describe.each(dialects)('rate limits: TRUST_PROXY and 0 = off (%s)', (dialect) => {
  let proxied: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    proxied = await buildTestApp(dialect, { TRUST_PROXY: '1' });
    off = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '0' });
  });
  afterAll(async () => {
    await proxied.close();
    await off.close();
  });

  it('behind a trusted proxy, the client address comes from X-Forwarded-For', async () => {
    const attempt = (client: string) =>
      post(
        proxied.app,
        apiPaths.token,
        { email: uniqueEmail(), password: 'wrong-guess' },
        { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } },
      );
    for (let i = 0; i < 12; i++) expect((await attempt(address(i))).statusCode).toBe(401); // 12 clients, 1 try each
    for (let i = 0; i < 10; i++) expect((await attempt('192.0.2.1')).statusCode).toBe(401);
    expect((await attempt('192.0.2.1')).statusCode).toBe(429); // that one client's 11th
  });

  it('RATE_LIMIT_LOGIN=0 turns the login limit off', async () => {
    const user = await createUser(off);
    for (let i = 0; i < 15; i++) expect((await login(off.app, user.email, 'wrong-guess')).statusCode).toBe(401);
    expect((await login(off.app, user.email, user.password)).statusCode).toBe(200);
  });
});
