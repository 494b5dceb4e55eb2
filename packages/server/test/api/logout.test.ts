import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { login, multipart, post, sessionStatus } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { createUser, tokenAuth, type TestUser } from '../helpers/users.js';

const tokenNotValid = { detail: 'Given token not valid for any token type', code: 'token_not_valid' };

describe.each(dialects)('logout, JWT logout and the legacy token login (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const newSession = async () =>
    (await login(t.app, user.email, user.password)).json() as { access: string; refresh: string };

  it('token logout: 200 {detail}, and that session is over for refresh and Token alike', async () => {
    const session = await newSession();
    const other = await newSession();
    const res = await post(t.app, apiPaths.logout, undefined, { headers: tokenAuth(session) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ detail: 'Successfully logged out.' });
    expect(await sessionStatus(t.app, session.refresh)).toEqual([401, 401]);
    // Only that session: the user's other login lives on.
    expect(await sessionStatus(t.app, other.refresh)).toEqual([200, 200]);
  });

  it('token logout: 401 without credentials, with a bad token or with an access token', async () => {
    const none = await post(t.app, apiPaths.logout);
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers['www-authenticate']).toBe('Token realm="api"');
    const session = await newSession();
    for (const authorization of ['Token garbage', `Token ${session.access}`, `Bearer ${session.refresh}`]) {
      const res = await post(t.app, apiPaths.logout, undefined, { headers: { authorization } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(tokenNotValid);
      expect(res.headers['www-authenticate']).toBe('Token realm="api"');
    }
  });

  it('JWT logout: 200 {}, and that session is over for refresh and Token alike', async () => {
    const session = await newSession();
    const res = await post(t.app, apiPaths.jwtLogout, { refresh: session.refresh });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(await sessionStatus(t.app, session.refresh)).toEqual([401, 401]);
    // The access token of an ended session stops working too.
    const profile = await t.app.inject({
      method: 'GET',
      url: apiPaths.userProfile,
      headers: { authorization: `Bearer ${session.access}` },
    });
    expect(profile.statusCode).toBe(401);
  });

  it('JWT logout: 401 token_not_valid for a bad or already ended token; 400 without one', async () => {
    const session = await newSession();
    await post(t.app, apiPaths.jwtLogout, { refresh: session.refresh });
    for (const refresh of [session.refresh, 'garbage', session.access]) {
      const res = await post(t.app, apiPaths.jwtLogout, { refresh });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(tokenNotValid);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="api"');
    }
    const missing = await post(t.app, apiPaths.jwtLogout, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ refresh: ['This field is required.'] });
  });

  it('api-token-auth: multipart {username, password} → 200 {token}, a refresh token of a new session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.apiTokenAuth,
      ...multipart({ username: user.email, password: user.password }),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    expect(await sessionStatus(t.app, res.json().token)).toEqual([200, 200]);
  });

  it('api-token-auth: wrong password or unknown user → 400 non_field_errors, the same for both', async () => {
    const wrong = await post(t.app, apiPaths.apiTokenAuth, { username: user.email, password: 'nope-nope' });
    const unknown = await post(t.app, apiPaths.apiTokenAuth, { username: 'nobody@example.com', password: 'nope-nope' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ non_field_errors: ['Unable to log in with provided credentials.'] });
    }
    const missing = await post(t.app, apiPaths.apiTokenAuth, { username: user.email });
    expect(missing.json()).toEqual({ password: ['This field is required.'] });
  });
});
