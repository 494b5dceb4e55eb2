import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, serverMessages } from '@hello/contract';
import { endSessionOnceChecked, goodPassword, login, sessionStatus, tokenNotValid } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { beforeNextCall } from '../helpers/next-call.js';
import { createUser } from '../helpers/users.js';

describe.each(dialects)('PUT /api/v1/users/changepassword/ (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const change = (access: string, payload: object) =>
    t.app.inject({
      method: 'PUT',
      url: apiPaths.changePassword,
      headers: { authorization: `Bearer ${access}` },
      payload,
    });

  it('changes the password: 200 {refresh} of this session; every other session ends', async () => {
    const user = await createUser(t);
    const other = (await login(t.app, user.email, user.password)).json();
    const next = goodPassword();
    const res = await change(user.access, { old_password: user.password, new_password: next, confirm: next });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['refresh']);
    expect(await sessionStatus(t.app, other.refresh)).toEqual([401, 401]);
    expect(await sessionStatus(t.app, res.json().refresh)).toEqual([200, 200]);
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(401);
    expect((await login(t.app, user.email, next)).statusCode).toBe(200);
  });

  it('changes nothing when the session ends between its check and the change (a logout, a reset): 401', async () => {
    const user = await createUser(t);
    const next = goodPassword();
    const spy = endSessionOnceChecked(t.app);
    try {
      const res = await change(user.access, { old_password: user.password, new_password: next, confirm: next });
      expect(spy).toHaveBeenCalledTimes(1);
      expect([res.statusCode, res.json()]).toEqual([401, tokenNotValid]);
    } finally {
      spy.mockRestore();
    }
    expect((await login(t.app, user.email, next)).statusCode).toBe(401);
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(200);
  });

  it('refuses the second of two changes at once from one session: the first stands', async () => {
    const user = await createUser(t);
    const [first, second] = [goodPassword(), goodPassword()];
    // The first change runs whole while the second is between its password check and its change.
    let firstStatus = 0;
    const spy = beforeNextCall(t.app.passwords, 'hash', async () => {
      firstStatus = (await change(user.access, { old_password: user.password, new_password: first, confirm: first }))
        .statusCode;
    });
    try {
      const res = await change(user.access, { old_password: user.password, new_password: second, confirm: second });
      expect(spy).toHaveBeenCalledTimes(2);
      expect(firstStatus).toBe(200);
      expect([res.statusCode, res.json()]).toEqual([400, { old_password: [serverMessages.wrongOldPassword] }]);
    } finally {
      spy.mockRestore();
    }
    expect((await login(t.app, user.email, second)).statusCode).toBe(401);
    expect((await login(t.app, user.email, first)).statusCode).toBe(200);
  });

  it('keeps the calling session alive: its old refresh token still works', async () => {
    const user = await createUser(t);
    const next = goodPassword();
    expect(
      (await change(user.access, { old_password: user.password, new_password: next, confirm: next })).statusCode,
    ).toBe(200);
    expect(await sessionStatus(t.app, user.refresh)).toEqual([200, 200]);
  });

  it('400 {old_password} for a wrong old password, and nothing changes', async () => {
    const user = await createUser(t);
    const next = goodPassword();
    const res = await change(user.access, { old_password: 'wrong-wrong', new_password: next, confirm: next });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ old_password: ['Your old password was entered incorrectly. Please enter it again.'] });
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(200);
  });

  it('400 {confirm} when the confirmation differs', async () => {
    const user = await createUser(t);
    const res = await change(user.access, {
      old_password: user.password,
      new_password: goodPassword(),
      confirm: goodPassword(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ confirm: ["The two password fields didn't match."] });
  });

  it('400 {new_password} for a password the rules refuse', async () => {
    const user = await createUser(t);
    const res = await change(user.access, {
      old_password: user.password,
      new_password: 'password',
      confirm: 'password',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ new_password: ['This password is too common.'] });
  });

  it('400 for missing fields; 401 without or with a bad Bearer', async () => {
    const user = await createUser(t);
    const missing = await change(user.access, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json()).sort()).toEqual(['confirm', 'new_password', 'old_password']);
    const anonymous = await t.app.inject({ method: 'PUT', url: apiPaths.changePassword, payload: {} });
    expect(anonymous.statusCode).toBe(401);
    const refreshAsBearer = await change(user.refresh, {
      old_password: user.password,
      new_password: 'x',
      confirm: 'x',
    });
    expect(refreshAsBearer.statusCode).toBe(401);
    expect(refreshAsBearer.json().code).toBe('token_not_valid');
  });
});
