import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import {
  endSessionOnceChecked,
  login,
  multipart,
  refreshStatus,
  tokenNotValid,
  urlEncoded,
} from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { bearer, createUser, type TestUser } from '../helpers/users.js';

describe.each(dialects)('GET/POST /api/v1/user/profile/ (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const get = (headers: Record<string, string> = bearer(user)) =>
    t.app.inject({ method: 'GET', url: apiPaths.userProfile, headers });
  const save = (body: { payload?: unknown; headers?: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: apiPaths.userProfile,
      payload: body.payload as string,
      headers: { ...bearer(user), ...body.headers },
    });

  it('answers the profile of a new user with "" for absent values', async () => {
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      email: user.email,
      first_name: '',
      last_name: '',
      user_profile: { telephone: '', mobile: '', website: '' },
    });
  });

  it('saves nothing when the session ends between its check and the save (a logout at that moment): 401', async () => {
    const own = await createUser(t);
    const spy = endSessionOnceChecked(t.app);
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: apiPaths.userProfile,
        payload: { first_name: 'Saved', last_name: 'Late' },
        headers: bearer(own),
      });
      expect(spy).toHaveBeenCalledTimes(1);
      expect([res.statusCode, res.json()]).toEqual([401, tokenNotValid]);
    } finally {
      spy.mockRestore();
    }
    const again = (await login(t.app, own.email, own.password)).json<{ access: string }>();
    expect((await get(bearer(again))).json()).toMatchObject({ first_name: '', last_name: '' });
  });

  it('saves a multipart form with dotted names: 200 {user_info, refresh}', async () => {
    const res = await save(
      multipart({
        first_name: 'Ada',
        last_name: 'Lovelace',
        'user_profile.telephone': '+44 20 1234',
        'user_profile.mobile': '07700 900123',
        'user_profile.website': 'https://ada.example',
      }),
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user_info).toEqual({
      email: user.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      user_profile: { telephone: '+44 20 1234', mobile: '07700 900123', website: 'https://ada.example' },
    });
    expect(await refreshStatus(t.app, body.refresh)).toBe(200);
    expect((await get()).json()).toEqual(body.user_info);
  });

  it('saves nested JSON; absent optional fields become ""; the e-mail is read-only', async () => {
    const res = await save({
      payload: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'hijack@example.com',
        user_profile: { mobile: '555' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().user_info).toEqual({
      email: user.email,
      first_name: 'Grace',
      last_name: 'Hopper',
      user_profile: { telephone: '', mobile: '555', website: '' },
    });
  });

  it('saves a url-encoded form', async () => {
    const res = await save(
      urlEncoded({ first_name: 'Alan', last_name: 'Turing', 'user_profile.website': 'https://turing.example' }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().user_info.user_profile.website).toBe('https://turing.example');
  });

  it('400 for missing or blank names, and nothing changes', async () => {
    const before = (await get()).json();
    const missing = await save({ payload: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({ first_name: ['This field is required.'], last_name: ['This field is required.'] });
    const blank = await save({ payload: { first_name: '   ', last_name: '' } });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({
      first_name: ['This field may not be blank.'],
      last_name: ['This field may not be blank.'],
    });
    expect((await get()).json()).toEqual(before);
  });

  it('401 without credentials and with a bad token, for reading and saving', async () => {
    const none = await get({});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers['www-authenticate']).toBeDefined();
    const bad = await get({ authorization: 'Bearer nope' });
    expect(bad.json()).toEqual({ detail: 'Given token not valid for any token type', code: 'token_not_valid' });
    const saveAnonymous = await t.app.inject({
      method: 'POST',
      url: apiPaths.userProfile,
      payload: { first_name: 'X', last_name: 'Y' },
    });
    expect(saveAnonymous.statusCode).toBe(401);
  });
});
