import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, serverMessages } from '@hello/contract';
import { createPasswordHasher } from '../../src/auth/passwords.js';
import { deleteUser } from '../../src/repositories/users.js';
import { goodPassword, login, multipart, post, urlEncoded } from '../helpers/accounts.js';
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
      const spy = beforeNextCall(t.app.sessions, 'startWithPassword', () => deleteUser(t.app.db, doomed.userId));
      try {
        const res = await post(t.app, path, body(doomed));
        expect([res.statusCode, res.json()]).toEqual(answer);
        expect(spy).toHaveBeenCalledTimes(1);
      } finally {
        spy.mockRestore();
      }
    }
  });

  /** The owner's login, while the owner's password is changed through the API at its `passwords[method]` call. */
  async function loginWhilePasswordChanges(method: 'verify' | 'hash', owner: TestUser, next: string) {
    let changed = 0;
    const spy = beforeNextCall(t.app.passwords, method, async () => {
      changed = (
        await t.app.inject({
          method: 'PUT',
          url: apiPaths.changePassword,
          headers: { authorization: `Bearer ${owner.access}` },
          payload: { old_password: owner.password, new_password: next, confirm: next },
        })
      ).statusCode;
    });
    try {
      const res = await login(t.app, owner.email, owner.password);
      expect(changed).toBe(200);
      return res;
    } finally {
      spy.mockRestore();
    }
  }

  it('refuses a login whose password changes after it was checked: no session of the old password lives on', async () => {
    const owner = await createUser(t);
    const next = goodPassword();
    // The owner changes the password (which ends every other session) while the login is between
    // reading the account and checking its password against the hash it read.
    const res = await loginWhilePasswordChanges('verify', owner, next);
    expect([res.statusCode, res.json()]).toEqual([401, noAccount]);
    const live = await t.app.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', owner.userId)
      .where('ended_at', 'is', null)
      .execute();
    expect(live).toHaveLength(1); // the owner's own, which the change keeps
  });

  it('keeps a password changed while a login was storing the old one anew at a raised hashing cost', async () => {
    const owner = await createUser(t);
    const older = await createPasswordHasher({ memoryKiB: 2048, timeCost: 1 }, 1).hash(owner.password);
    await t.app.db.updateTable('users').set({ password_hash: older }).where('id', '=', owner.userId).execute();
    const next = goodPassword();
    // The change commits while the login hashes the old password at today's cost.
    const res = await loginWhilePasswordChanges('hash', owner, next);
    expect([res.statusCode, res.json()]).toEqual([401, noAccount]);
    expect((await login(t.app, owner.email, owner.password)).statusCode).toBe(401);
    expect((await login(t.app, owner.email, next)).statusCode).toBe(200);
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
