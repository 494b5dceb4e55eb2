import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths } from '@hello/contract';
import { login, post } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { emlFiles, mailsWaiting, parseEml, resetLink } from '../helpers/mail.js';
import { bearer, createUser, uniqueEmail } from '../helpers/users.js';

/** The contract's defaults (README, "Configuration"), written out here: the test must not take them from the code. */
const ACCESS_TOKEN_LIFETIME = 300;
const REFRESH_TOKEN_LIFETIME = 1_209_600; // 14 days
const RESET_TOKEN_LIFETIME = 3600;

/** A JWT's payload, read without checking it. */
const claimsOf = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as {
    iat: number;
    exp: number;
    sid: string;
  };

/**
 * Token lifetimes with no lifetime variable set (buildTestApp sets none): the access token, the refresh
 * token and its session, a password-reset token and an e-mail change token (docs/api.md). The clock is
 * held still (only Date: timers run as usual), so each expiry is known to the millisecond, and moved
 * to just before and just after it.
 */
describe.each(dialects)('token lifetimes, defaults (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, {}, { outbox: { pollMs: 50 } });
  });
  afterAll(() => t.close());
  afterEach(() => vi.useRealTimers());

  /** Holds the clock at now (whole milliseconds); answers it. */
  const holdClock = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const now = Date.now();
    vi.setSystemTime(now);
    return now;
  };
  const at = (ms: number) => vi.setSystemTime(ms);
  const iso = (ms: number) => new Date(ms).toISOString();
  /** The token of the last link mailed to `to` (as an .eml file: no SMTP_URL), once every mail is out. */
  async function mailedToken(to: string): Promise<string> {
    await t.app.afterAnswer.settled();
    await expect.poll(() => mailsWaiting(t.app.db), { timeout: 10_000, interval: 5 }).toBe(0);
    const mails = await Promise.all(emlFiles(t.dataDir).map((f) => parseEml(f.text)));
    const withLink = mails.filter((m) => m.to === to && /\?token=/.test(m.text));
    expect(withLink.length, `links mailed to ${to}`).toBeGreaterThan(0);
    return resetLink(withLink.at(-1)!.text).token;
  }

  it('a login: the access token lives 300 s; the refresh token and its session 1209600 s', async () => {
    const user = await createUser(t);
    const now = holdClock();
    const res = await login(t.app, user.email, user.password);
    expect(res.statusCode, res.body).toBe(200);
    const { access, refresh } = res.json() as { access: string; refresh: string };

    const accessClaims = claimsOf(access);
    expect(accessClaims.iat).toBe(Math.floor(now / 1000));
    expect(accessClaims.exp - accessClaims.iat).toBe(ACCESS_TOKEN_LIFETIME);
    const refreshClaims = claimsOf(refresh);
    expect(refreshClaims.exp - refreshClaims.iat).toBe(REFRESH_TOKEN_LIFETIME);
    expect(refreshClaims.sid).toBe(accessClaims.sid);
    const session = await t.app.db
      .selectFrom('sessions')
      .select(['created_at', 'expires_at'])
      .where('id', '=', accessClaims.sid)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ created_at: iso(now), expires_at: iso(now + REFRESH_TOKEN_LIFETIME * 1000) });

    const profile = () => t.app.inject({ method: 'GET', url: apiPaths.userProfile, headers: bearer({ access }) });
    at(now + (ACCESS_TOKEN_LIFETIME - 1) * 1000);
    expect((await profile()).statusCode).toBe(200);
    at(now + (ACCESS_TOKEN_LIFETIME + 1) * 1000);
    expect((await profile()).statusCode).toBe(401);

    // A refresh gives a new access token of the same lifetime, counted from the refresh.
    const refreshed = await post(t.app, apiPaths.tokenRefresh, { refresh });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    const renewed = claimsOf((refreshed.json() as { access: string }).access);
    expect(renewed.iat).toBe(Math.floor(now / 1000) + ACCESS_TOKEN_LIFETIME + 1);
    expect(renewed.exp - renewed.iat).toBe(ACCESS_TOKEN_LIFETIME);

    // The refresh token works until the session's end, and not after it.
    at(now + (REFRESH_TOKEN_LIFETIME - 1) * 1000);
    expect((await post(t.app, apiPaths.tokenRefresh, { refresh })).statusCode).toBe(200);
    at(now + (REFRESH_TOKEN_LIFETIME + 1) * 1000);
    expect((await post(t.app, apiPaths.tokenRefresh, { refresh })).statusCode).toBe(401);
  });

  it('a password-reset token expires 3600 s after it was asked for', async () => {
    const user = await createUser(t);
    const now = holdClock();
    const res = await post(t.app, apiPaths.passwordReset, { email: user.email, reset_new_password_path: '/reset' });
    expect(res.statusCode, res.body).toBe(200);
    const token = await mailedToken(user.email);
    const rows = await t.app.db
      .selectFrom('password_reset_tokens')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', user.userId)
      .execute();
    expect(rows).toEqual([{ created_at: iso(now), expires_at: iso(now + RESET_TOKEN_LIFETIME * 1000) }]);

    const validate = async () => (await post(t.app, apiPaths.passwordResetValidateToken, { token })).json();
    at(now + (RESET_TOKEN_LIFETIME - 1) * 1000);
    expect(await validate()).toEqual({ status: 'OK' });
    at(now + (RESET_TOKEN_LIFETIME + 1) * 1000);
    expect(await validate()).toEqual({ status: 'notfound' });
  });

  it('an e-mail change token expires 3600 s (RESET_TOKEN_LIFETIME) after it was asked for', async () => {
    const [early, late] = [await createUser(t), await createUser(t)];
    const now = holdClock();
    const asked = await Promise.all(
      [early, late].map(async (user) => {
        const newEmail = uniqueEmail('moved');
        const res = await post(
          t.app,
          apiPaths.changeEmail,
          { new_email: newEmail, password: user.password },
          { headers: bearer(user) },
        );
        expect(res.statusCode, res.body).toBe(200);
        return newEmail;
      }),
    );
    const rows = await t.app.db
      .selectFrom('email_change_tokens')
      .select(['user_id', 'expires_at'])
      .where('user_id', 'in', [early.userId, late.userId])
      .orderBy('user_id')
      .execute();
    expect(rows).toEqual(
      [early, late]
        .map((u) => ({ user_id: u.userId, expires_at: iso(now + RESET_TOKEN_LIFETIME * 1000) }))
        .sort((a, b) => a.user_id - b.user_id),
    );

    const [earlyToken, lateToken] = [await mailedToken(asked[0]!), await mailedToken(asked[1]!)];
    const confirm = async (token: string) => {
      const res = await post(t.app, apiPaths.confirmEmail, { token });
      return [res.statusCode, res.json()];
    };
    at(now + (RESET_TOKEN_LIFETIME - 1) * 1000);
    expect(await confirm(earlyToken)).toEqual([200, { status: 'OK' }]);
    at(now + (RESET_TOKEN_LIFETIME + 1) * 1000);
    expect(await confirm(lateToken)).toEqual([404, { status: 'notfound' }]);
  });
});
