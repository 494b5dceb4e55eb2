import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, serverMessages } from '@hello/contract';
import { register as registerAccount } from '../../src/auth/registration.js';
import { goodPassword, login, multipart, post, refreshStatus, register, tokenStatus } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { failInserts } from '../helpers/failing-inserts.js';
import { uniqueEmail } from '../helpers/users.js';

describe.each(dialects)('POST /api/v1/rest-auth/registration/ (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { outbox: { pollMs: 50 } });
  });
  afterAll(() => t.close());

  it('creates the account: 201 {key}, a refresh token of a live first session', async () => {
    const email = uniqueEmail();
    const password = goodPassword();
    const res = await register(t.app, email, password);
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.json())).toEqual(['key']);
    const { key } = res.json();
    expect(await refreshStatus(t.app, key)).toBe(200);
    expect((await login(t.app, email, password)).statusCode).toBe(200);
    expect(await tokenStatus(t.app, key)).toBe(200); // the key works as `Token` too
  });

  it('leaves no account when its first session cannot start: the address can register again', async () => {
    const email = uniqueEmail();
    const password = goodPassword();
    const allowInserts = await failInserts(t.app.db, 'sessions');
    try {
      // (called directly: over HTTP the refused insert would answer 500, which no call declares)
      const device = { userAgent: '', ip: '127.0.0.1' };
      await expect(registerAccount(t.app, email, password, device)).rejects.toThrow(/insert refused by a test/);
    } finally {
      await allowInserts();
    }
    const res = await register(t.app, email, password);
    expect(res.statusCode, res.body).toBe(201);
  });

  it('accepts a multipart body', async () => {
    const password = goodPassword();
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.registration,
      ...multipart({ email: uniqueEmail(), password1: password, password2: password }),
    });
    expect(res.statusCode).toBe(201);
  });

  it('answers missing fields with "This field is required."', async () => {
    const res = await post(t.app, apiPaths.registration, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      email: ['This field is required.'],
      password1: ['This field is required.'],
      password2: ['This field is required.'],
    });
  });

  it('rejects a malformed e-mail', async () => {
    const password = goodPassword();
    const res = await post(t.app, apiPaths.registration, {
      email: 'not-an-address',
      password1: password,
      password2: password,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ email: ['Enter a valid email address.'] });
  });

  it('takes an internationalized domain, kept in its ASCII form; a login names it either way', async () => {
    const local = uniqueEmail('zoe').split('@')[0]!;
    const password = goodPassword();
    expect((await register(t.app, `${local}@Bücher.de`, password)).statusCode).toBe(201);
    const signedIn = await login(t.app, `${local.toUpperCase()}@BÜCHER.DE`, password);
    expect(signedIn.statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: apiPaths.userProfile,
      headers: { authorization: `Bearer ${signedIn.json().access}` },
    });
    expect(profile.json().email).toBe(`${local}@xn--bcher-kva.de`);
    expect((await login(t.app, `${local}@xn--bcher-kva.de`, password)).statusCode).toBe(200);
    // One mailbox, one account, whichever way its domain is written.
    const again = await register(t.app, `${local}@xn--BCHER-kva.de`, goodPassword());
    expect(again.json()).toEqual({ email: [serverMessages.emailTaken] });
    // A domain that is no domain stays refused, whatever the URL parser would make of it.
    for (const email of [`${local}@bü%41cher.de`, `${local}@bü\tcher.de`, `${local}@bücher.de/x`]) {
      const res = await register(t.app, email, goodPassword());
      expect(res.json(), email).toEqual({ email: [serverMessages.invalidEmail] });
    }
  });

  it('reports different passwords under non_field_errors', async () => {
    const res = await post(t.app, apiPaths.registration, {
      email: uniqueEmail(),
      password1: goodPassword(),
      password2: goodPassword(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ non_field_errors: ["The two password fields didn't match."] });
  });

  it('applies the password rules to password1, every failing rule at once', async () => {
    const res = await register(t.app, uniqueEmail(), '1234567');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      password1: [
        'This password is too short. It must contain at least 8 characters.',
        'This password is too common.',
        'This password is entirely numeric.',
      ],
    });
    const similar = await register(t.app, 'margaretha.vandenberg@example.com', 'Vandenberg');
    expect(similar.json().password1).toContain('The password is too similar to the email address.');
  });

  it('answers a taken address and a weak password together: every field that failed at once', async () => {
    const email = uniqueEmail('both');
    expect((await register(t.app, email, goodPassword())).statusCode).toBe(201);
    const res = await register(t.app, email, 'short');
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['email', 'password1']);
    expect(res.json().email).toEqual([serverMessages.emailTaken]);
  });

  it('answers a taken address, in any letter case, with the e-mail error, counted by the registration limit', async () => {
    const email = uniqueEmail('owner');
    const password = goodPassword();
    expect((await register(t.app, email, password)).statusCode).toBe(201);
    for (const again of [email, email.toUpperCase()]) {
      const res = await register(t.app, again, goodPassword());
      expect(res.statusCode, again).toBe(400);
      expect(res.json()).toEqual({ email: [serverMessages.emailTaken] });
    }
    // The owner's account is as it was: the first password still logs in.
    expect((await login(t.app, email, password)).statusCode).toBe(200);

    const limited = await buildTestApp(dialect, { RATE_LIMIT_REGISTER: '2/60' });
    try {
      const other = uniqueEmail('limited');
      expect((await register(limited.app, other, password)).statusCode).toBe(201);
      expect((await register(limited.app, other.toUpperCase(), password)).statusCode).toBe(400);
      expect((await register(limited.app, uniqueEmail('third'), password)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('keeps a registered user across a restart of the server', async () => {
    const email = uniqueEmail('durable');
    const password = goodPassword();
    expect((await register(t.app, email, password)).statusCode).toBe(201);
    await t.restart();
    expect((await login(t.app, email, password)).statusCode).toBe(200);
  });
});
