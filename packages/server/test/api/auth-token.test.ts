import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, serverMessages } from '@hello/contract';
import { deleteUser } from '../../src/repositories/users.js';
import { login, multipart, post, urlEncoded } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { beforeNextCall } from '../helpers/next-call.js';
import { createUser, uniqueEmail, type TestUser } from '../helpers/users.js';

const noAccount = { detail: 'No active account found with the given credentials' };

describe.each(dialects)('POST /api/v1/token/ and /token/refresh/ (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  it('logs in with JSON: 200 {access, refresh} of a new session', async () => {
    const res = await login(t.app, user.email, user.password);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access', 'refresh']);
    expect(body.refresh).not.toBe(user.refresh);
    const refreshed = await post(t.app, apiPaths.tokenRefresh, { refresh: body.refresh });
    expect(refreshed.statusCode).toBe(200);
  });

  it('matches the e-mail regardless of letter case', async () => {
    const res = await login(t.app, user.email.toUpperCase(), user.password);
    expect(res.statusCode).toBe(200);
  });

  it('accepts multipart and url-encoded bodies alike', async () => {
    for (const body of [
      multipart({ email: user.email, password: user.password }),
      urlEncoded({ email: user.email, password: user.password }),
    ]) {
      const res = await t.app.inject({ method: 'POST', url: apiPaths.token, ...body });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveProperty('access');
    }
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await login(t.app, user.email, 'not the password');
    const unknown = await login(t.app, uniqueEmail('nobody'), 'not the password');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(noAccount);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
    expect(wrong.body).toBe(unknown.body);
  });

  it('answers a login whose account is deleted after its password was checked as one of no account', async () => {
    for (const [path, body, answer] of [
      [apiPaths.token, (u: TestUser) => ({ email: u.email, password: u.password }), [401, noAccount]],
      [
        apiPaths.apiTokenAuth,
        (u: TestUser) => ({ username: u.email, password: u.password }),
        [400, { non_field_errors: [serverMessages.unableToLogIn] }],
      ],
    ] as const) {
      const doomed = await createUser(t);
      const spy = beforeNextCall(t.app.sessions, 'start', () => deleteUser(t.app.db, doomed.userId));
      try {
        const res = await post(t.app, path, body(doomed));
        expect([res.statusCode, res.json()]).toEqual(answer);
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    }
  });

  it('answers missing and blank fields with 400 field errors', async () => {
    const missing = await post(t.app, apiPaths.token, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ email: ['This field is required.'], password: ['This field is required.'] });
    const blank = await post(t.app, apiPaths.token, { email: '', password: 'x' });
    expect(blank.json()).toEqual({ email: ['This field may not be blank.'] });
  });

  it('refreshes a live refresh token into an access token that authenticates', async () => {
    const res = await post(t.app, apiPaths.tokenRefresh, { refresh: user.refresh });
    expect(res.statusCode).toBe(200);
    const { access } = res.json();
    expect(Object.keys(res.json())).toEqual(['access']);
    const profile = await t.app.inject({
      method: 'GET',
      url: apiPaths.userProfile,
      headers: { authorization: `Bearer ${access}` },
    });
    expect(profile.statusCode).toBe(200);
  });

  it('answers a bad, forged or wrong-type refresh token with 401 token_not_valid', async () => {
    const tampered = `${user.refresh.slice(0, -4)}AAAA`;
    for (const refresh of ['garbage', tampered, user.access]) {
      const res = await post(t.app, apiPaths.tokenRefresh, { refresh });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Given token not valid for any token type', code: 'token_not_valid' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
    const missing = await post(t.app, apiPaths.tokenRefresh, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ refresh: ['This field is required.'] });
  });
});
