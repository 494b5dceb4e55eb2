import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { generate } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, errorCodes, serverMessages } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { createPasswordHasher } from '../../src/auth/passwords.js';
import { listLiveSessions } from '../../src/repositories/sessions.js';
import { deleteUser, setPasswordHash } from '../../src/repositories/users.js';
import { goodPassword, login, post, sessionStatus, tokenNotValid } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { hmacJwt } from '../helpers/forged-tokens.js';
import { holdRowLocks, statementsWaitingForLocks } from '../helpers/row-locks.js';
import { afterNextCall, beforeNextCall, holdNextCall } from '../helpers/next-call.js';
import { bearer, createUser, type TestUser } from '../helpers/users.js';

type App = TestApp['app'];

/** Two-step sign-in (docs/api.md, "Two-step sign-in"), with notices through a real SMTP peer. */
describe.each(dialects)('two-step sign-in (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await buildTestApp(
      dialect,
      { SMTP_URL: peer.url, MAIL_FROM: 'hello@app.test', RATE_LIMIT_LOGIN: '0' },
      { outbox: { baseDelayMs: 50, maxDelayMs: 200, pollMs: 100 } },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await peer?.stop();
  });
  // The clock is moved 30 s at a time (only Date: timers run as usual), so each login has a fresh code.
  afterEach(() => vi.useRealTimers());
  const nextStep = () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 30_000);
  };
  const codeOf = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });

  const as = (user: Pick<TestUser, 'access'>) => ({ headers: bearer(user) });
  const loginStep = async (app: App, user: TestUser) => {
    const res = await login(app, user.email, user.password);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { mfa_required?: true; mfa_token?: string; access?: string; refresh?: string };
  };
  const codeStep = (app: App, mfa_token: string, code: string) => post(app, apiPaths.tokenMfa, { mfa_token, code });
  /** PostgreSQL: sessions of this test's own database waiting on a lock (other files have databases of their own). */
  const waiting = () => statementsWaitingForLocks(t.app.db);

  /** A user with two-step sign-in on: its secret and recovery codes. */
  async function withTwoStep(on: TestApp = t): Promise<{ user: TestUser; secret: string; recovery: string[] }> {
    const user = await createUser(on);
    const setup = await post(on.app, apiPaths.totpSetup, { password: user.password }, as(user));
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const confirmed = await post(on.app, apiPaths.totpConfirm, { code: await codeOf(secret) }, as(user));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return { user, secret, recovery: confirmed.json().recovery_codes };
  }

  it('sets up with the password, turns on with a first code: ten recovery codes, other sessions end, a notice', async () => {
    const user = await createUser(t);
    const other = await t.app.sessions.start(user.userId);
    expect((await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(user) })).json()).toEqual({
      enabled: false,
      recovery_codes_left: 0,
    });
    const wrong = await post(t.app, apiPaths.totpSetup, { password: 'not it' }, as(user));
    expect(wrong.json()).toEqual({ password: [serverMessages.wrongPassword] });
    expect((await post(t.app, apiPaths.totpConfirm, { code: '123456' }, as(user))).json()).toEqual({
      code: [serverMessages.totpNotSetUp],
    });

    const setup = await post(t.app, apiPaths.totpSetup, { password: user.password }, as(user));
    const { secret, otpauth_url } = setup.json() as { secret: string; otpauth_url: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauth_url);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    // Not on until confirmed: the login still answers tokens.
    expect((await loginStep(t.app, user)).access).toBeDefined();
    const stored = await t.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored.totp_pending_secret).not.toContain(secret); // sealed at rest
    expect(stored.totp_secret).toBeNull();

    expect((await post(t.app, apiPaths.totpConfirm, { code: '000000' }, as(user))).json()).toEqual({
      code: [serverMessages.invalidCode],
    });
    const since = peer.messages.length;
    const confirmed = await post(t.app, apiPaths.totpConfirm, { code: await codeOf(secret) }, as(user));
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const hashes = await t.app.db
      .selectFrom('totp_recovery_codes')
      .select('code_hash')
      .where('user_id', '=', user.userId)
      .execute();
    expect(hashes).toHaveLength(10);
    expect(hashes.some((h) => codes.some((c) => h.code_hash.includes(c.replace('-', ''))))).toBe(false);
    const on = await t.app.db
      .selectFrom('users')
      .select(['totp_secret', 'totp_pending_secret'])
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(on.totp_secret).not.toContain(secret);
    expect(on.totp_pending_secret).toBeNull();

    expect(await sessionStatus(t.app, other.refresh)).toEqual([401, 401]); // other sessions ended
    expect((await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(user) })).json()).toEqual({
      enabled: true,
      recovery_codes_left: 10,
    });
    await peer.waitForMail({ to: user.email, since, subject: 'Two-step sign-in was turned on' });
    expect((await post(t.app, apiPaths.totpSetup, { password: user.password }, as(user))).json()).toEqual({
      non_field_errors: [serverMessages.totpAlreadyOn],
    });
  });

  it('signs in with the password then a code; a code is accepted once, even on another instance', async () => {
    const { user, secret } = await withTwoStep();
    nextStep();
    const first = await loginStep(t.app, user);
    expect(first).toEqual({ mfa_required: true, mfa_token: expect.any(String) });
    expect(first.access).toBeUndefined();
    const code = await codeOf(secret);
    const done = await codeStep(t.app, first.mfa_token!, code);
    expect(done.statusCode, done.body).toBe(200);
    const tokens = done.json() as { access: string; refresh: string };
    expect((await t.app.inject({ method: 'GET', url: apiPaths.userProfile, ...as(tokens) })).statusCode).toBe(200);

    // The same code again: refused here, and by a second instance on the same database.
    const replay = await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, code);
    expect(replay.statusCode).toBe(401);
    expect(replay.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
    const other = await buildApp(t.config);
    try {
      expect((await codeStep(other, (await loginStep(other, user)).mfa_token!, code)).statusCode).toBe(401);
      nextStep();
      const fresh = await codeOf(secret);
      expect((await codeStep(other, (await loginStep(other, user)).mfa_token!, fresh)).statusCode).toBe(200);
      expect((await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, fresh)).statusCode).toBe(401);
    } finally {
      await other.close();
    }

    // The mfa token is no access token, and an access token is no mfa token.
    const mfaToken = (await loginStep(t.app, user)).mfa_token!;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: apiPaths.userProfile,
          headers: { authorization: `Bearer ${mfaToken}` },
        })
      ).statusCode,
    ).toBe(401);
    nextStep();
    expect((await codeStep(t.app, tokens.access, await codeOf(secret))).statusCode).toBe(401);
    // Signed with our key but made by hand: without the binding a login's password step gives, no good.
    const forged = hmacJwt('HS256', t.config.secretKey, {
      token_type: 'mfa',
      sid: 'x',
      sub: String(user.userId),
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    expect((await codeStep(t.app, forged, await codeOf(secret))).json().code).toBe(errorCodes.mfaInvalid);
    // An mfa token lives 5 minutes.
    vi.setSystemTime(Date.now() + 301_000);
    expect((await codeStep(t.app, mfaToken, await codeOf(secret))).statusCode).toBe(401);
  });

  it('accepts at sign-in the codes of the steps before and after now (±30 s), and refuses codes two or three steps off', async () => {
    const { user, secret } = await withTwoStep();
    // The clock held still (Date only), ten steps on from the one the confirmation used, at a moment
    // whose seven codes (−90 s … +90 s) all differ: each answer then says something about its own step.
    vi.useFakeTimers({ toFake: ['Date'] });
    let now = Date.now() + 300_000;
    const offsets = [-90, -60, -30, 0, 30, 60, 90];
    const codesAt = (ms: number) =>
      Promise.all(offsets.map((offset) => generate({ secret, epoch: Math.floor(ms / 1000) + offset })));
    while (new Set(await codesAt(now)).size < offsets.length) now += 30_000;
    vi.setSystemTime(now);
    const codeAt = async (offset: number) => (await codesAt(now))[offsets.indexOf(offset)]!;
    const stepWith = async (offset: number) =>
      codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, await codeAt(offset));

    // Refused first: once a step is accepted, a code of it or of an earlier step is refused for that
    // reason alone, which would hide a window too wide.
    for (const offset of [-90, -60, 60, 90]) {
      const res = await stepWith(offset);
      expect([res.statusCode, res.json()], `${offset} s`).toEqual([
        401,
        { detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid },
      ]);
    }
    // One step back, then one step ahead (in that order: each is later than any step accepted before it).
    for (const offset of [-30, 30]) {
      const res = await stepWith(offset);
      expect(res.statusCode, `${offset} s: ${res.body}`).toBe(200);
      const tokens = res.json() as { access: string; refresh: string };
      expect(tokens).toEqual({ access: expect.any(String), refresh: expect.any(String) });
      expect((await t.app.inject({ method: 'GET', url: apiPaths.userProfile, ...as(tokens) })).statusCode).toBe(200);
    }
  });

  it('an mfa token lives 5 minutes: a code step 299 s after the password step signs in, one at 301 s does not', async () => {
    const { user, secret } = await withTwoStep();
    vi.useFakeTimers({ toFake: ['Date'] });
    const started = Date.now() + 30_000; // a step after the confirmation's
    vi.setSystemTime(started);
    const token = (await loginStep(t.app, user)).mfa_token!;
    vi.setSystemTime(started + 299_000);
    const inTime = await codeStep(t.app, token, await codeOf(secret));
    expect(inTime.statusCode, inTime.body).toBe(200);

    vi.setSystemTime(started + 330_000);
    const late = (await loginStep(t.app, user)).mfa_token!;
    vi.setSystemTime(started + 330_000 + 301_000);
    const code = await codeOf(secret);
    const tooLate = await codeStep(t.app, late, code);
    expect([tooLate.statusCode, tooLate.json()]).toEqual([
      401,
      { detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid },
    ]);
    // The token's age alone: the same code with a token of now signs in.
    const fresh = await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, code);
    expect(fresh.statusCode, fresh.body).toBe(200);
  });

  it('an mfa token signs in once: its second code step is refused before the code is looked at', async () => {
    const { user, secret, recovery } = await withTwoStep();
    nextStep();
    const token = (await loginStep(t.app, user)).mfa_token!;
    expect((await codeStep(t.app, token, await codeOf(secret))).statusCode).toBe(200);
    const again = await codeStep(t.app, token, recovery[0]!);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
    // The recovery code was not used up by the refused step: it still signs in with a token of its own.
    expect((await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(user) })).json().recovery_codes_left).toBe(
      10,
    );
    expect((await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, recovery[0]!)).statusCode).toBe(200);

    // Two code steps of one token at once, on two instances, each with a good code: one session.
    const other = await buildApp(t.config);
    try {
      nextStep();
      const raced = (await loginStep(t.app, user)).mfa_token!;
      const answers = await Promise.all([
        codeStep(t.app, raced, await codeOf(secret)),
        codeStep(other, raced, recovery[1]!),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
      // The recovery code is used up only if its step was the one that signed in.
      const winner = answers.find((a) => a.statusCode === 200)!;
      const left = (await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(winner.json()) })).json();
      expect(left.recovery_codes_left).toBe(winner === answers[1] ? 8 : 9);
    } finally {
      await other.close();
    }
  });

  it('of two code steps of one token at once, the one that does not sign in leaves its code unused', async () => {
    const { user, recovery } = await withTwoStep();
    const token = (await loginStep(t.app, user)).mfa_token!;
    const since = peer.messages.length;
    const other = await buildApp(t.config);
    // The first step is held after its checks (at the login limit's count), until the second has signed in.
    const { spy, release } = holdNextCall(t.app.rateLimits, 'consume');
    try {
      const first = codeStep(t.app, token, recovery[0]!);
      await expect.poll(() => spy.mock.calls.length, { timeout: 3_000 }).toBe(1);
      const second = await codeStep(other, token, recovery[1]!);
      expect(second.statusCode, second.body).toBe(200);
      release();
      expect((await first).json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
      const status = await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(second.json()) });
      expect(status.json().recovery_codes_left).toBe(9);
      // The refused step's code still signs in, and one notice went out for the two steps.
      const next = await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, recovery[0]!);
      expect(next.statusCode, next.body).toBe(200);
      const notices = () =>
        peer.messages
          .slice(since)
          .filter(
            (m) => m.to.includes(user.email.toLowerCase()) && m.subject === 'A recovery code was used to sign in',
          );
      await expect.poll(() => notices().length, { timeout: 10_000 }).toBe(2);
      expect(
        notices()
          .map((m) => m.text.match(/(\d+) unused recovery codes left/)?.[1])
          .sort(),
      ).toEqual(['8', '9']);
    } finally {
      spy.mockRestore();
      await other.close();
    }
  });

  it("a code refused in the session's transaction leaves its token good, also for a step that waited on it", async () => {
    const { user, secret, recovery } = await withTwoStep();
    expect((await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, recovery[5]!)).statusCode).toBe(200);
    const token = (await loginStep(t.app, user)).mfa_token!;
    // A code of a recovery code's shape that is none of the user's, and a used one: refused in the
    // transaction, after the session's row was written; the rollback leaves the token's session id free.
    expect((await codeStep(t.app, token, 'aaaaa-aaaaa')).json().code).toBe(errorCodes.mfaInvalid);
    expect((await codeStep(t.app, token, recovery[5]!)).json().code).toBe(errorCodes.mfaInvalid);

    // A step held in its transaction (its code is refused), and a second one of the same token meanwhile:
    // on PostgreSQL the second waits at the user's row lock, on SQLite for the connection; then signs in.
    const { spy, release } = holdNextCall(t.app.twoStep, 'useParsed');
    try {
      const first = codeStep(t.app, token, 'bbbbb-bbbbb');
      await expect.poll(() => spy.mock.calls.length, { timeout: 3_000 }).toBe(1);
      nextStep();
      const second = codeStep(t.app, token, await codeOf(secret));
      if (dialect === 'postgres') {
        // Within the pool's 5 s query timeout (db/database.ts), which the waiting insert counts against.
        await expect.poll(waiting, { timeout: 3_000 }).toBe(1);
      }
      release();
      expect((await first).json().code).toBe(errorCodes.mfaInvalid);
      const signedIn = await second;
      expect(signedIn.statusCode, signedIn.body).toBe(200);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('refuses a code step whose account was deleted meanwhile', async () => {
    const { user, secret } = await withTwoStep();
    nextStep();
    const token = (await loginStep(t.app, user)).mfa_token!;
    const spy = beforeNextCall(t.app.twoStep, 'parseCode', () => deleteUser(t.app.db, user.userId));
    try {
      const res = await codeStep(t.app, token, await codeOf(secret));
      expect(res.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
    } finally {
      spy.mockRestore();
    }
  });

  it('signs in with a code after a login that stored the password at a raised hashing cost', async () => {
    const { user, secret } = await withTwoStep();
    // A hash made at another cost than today's: the password step stores a new one.
    const older = await createPasswordHasher({ memoryKiB: 2048, timeCost: 1 }, 1).hash(user.password);
    await t.app.db.updateTable('users').set({ password_hash: older }).where('id', '=', user.userId).execute();
    nextStep();
    const token = (await loginStep(t.app, user)).mfa_token!;
    const stored = await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', user.userId)
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).not.toBe(older);
    const done = await codeStep(t.app, token, await codeOf(secret));
    expect(done.statusCode, done.body).toBe(200);
  });

  it('refuses, and ends, the session of a code step that a password reset overtook', async () => {
    const { user, secret } = await withTwoStep();
    nextStep();
    const token = (await loginStep(t.app, user)).mfa_token!;
    const liveBefore = (await listLiveSessions(t.app.db, user.userId)).length;
    // The reset commits between the code step's checks and its session's start (here, just before it).
    const spy = beforeNextCall(t.app.sessions, 'startWithCode', async () =>
      setPasswordHash(t.app.db, user.userId, await t.app.passwords.hash(goodPassword())),
    );
    try {
      const res = await codeStep(t.app, token, await codeOf(secret));
      expect(res.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    expect((await listLiveSessions(t.app.db, user.userId)).length).toBe(liveBefore);
  });

  it('a new password, or two-step sign-in set up again, leaves an outstanding mfa token worth nothing', async () => {
    const { user, secret: firstSecret, recovery } = await withTwoStep();
    const beforeChange = (await loginStep(t.app, user)).mfa_token!;
    const password = goodPassword();
    const changed = await t.app.inject({
      method: 'PUT',
      url: apiPaths.changePassword,
      payload: { old_password: user.password, new_password: password, confirm: password },
      ...as(user),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await codeStep(t.app, beforeChange, recovery[0]!);
    expect(stale.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
    const renewed = { ...user, password };

    // Turned off and on again with a new secret: a token given before is refused, a new one works.
    const beforeReset = (await loginStep(t.app, renewed)).mfa_token!;
    const signedIn = await codeStep(t.app, (await loginStep(t.app, renewed)).mfa_token!, recovery[1]!);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = signedIn.json() as { access: string };
    nextStep();
    const off = await post(t.app, apiPaths.totpDisable, { password, code: await codeOf(firstSecret) }, as(session));
    expect(off.statusCode, off.body).toBe(200);
    const { secret } = (await post(t.app, apiPaths.totpSetup, { password }, as(session))).json() as { secret: string };
    expect(secret).not.toBe(firstSecret);
    nextStep();
    expect((await post(t.app, apiPaths.totpConfirm, { code: await codeOf(secret) }, as(session))).statusCode).toBe(200);
    nextStep();
    const code = await codeOf(secret);
    const refused = await codeStep(t.app, beforeReset, code);
    expect(refused.json()).toEqual({ detail: serverMessages.mfaInvalid, code: errorCodes.mfaInvalid });
    // Refused before the code was looked at: the same code still signs in with a token of today's secret.
    expect((await codeStep(t.app, (await loginStep(t.app, renewed)).mfa_token!, code)).statusCode).toBe(200);
  });

  it('signs in with a recovery code once, and mails a notice saying how many are left', async () => {
    const { user, recovery } = await withTwoStep();
    const since = peer.messages.length;
    const used = recovery[3]!;
    const res = await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, ` ${used.toUpperCase()} `);
    expect(res.statusCode, res.body).toBe(200);
    expect((await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, used)).statusCode).toBe(401);
    const notice = await peer.waitForMail({ to: user.email, since, subject: 'A recovery code was used to sign in' });
    expect(notice.text).toContain('9 unused recovery codes left');
    expect(
      (await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(res.json()) })).json().recovery_codes_left,
    ).toBe(9);
  });

  it('counts wrong codes against the login limit of the account', async () => {
    const limited = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '5/900' });
    try {
      const { user, secret } = await withTwoStep(limited);
      const token = (await loginStep(limited.app, user)).mfa_token!;
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await codeStep(limited.app, token, String(100000 + i))).statusCode);
      // Five wrong codes, then the limit, for the right code too.
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      nextStep();
      expect((await codeStep(limited.app, token, await codeOf(secret))).statusCode).toBe(429);
      expect((await login(limited.app, user.email, user.password)).statusCode).toBe(429); // the password step too
    } finally {
      await limited.close();
    }
  });

  it('turning off with a used code (a recovery code, a TOTP code of the last step) leaves it on, its writes undone', async () => {
    const { user, secret, recovery } = await withTwoStep();
    const session = (await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, recovery[0]!)).json();
    nextStep();
    const code = await codeOf(secret);
    expect((await codeStep(t.app, (await loginStep(t.app, user)).mfa_token!, code)).statusCode).toBe(200);
    for (const used of [recovery[0]!, code]) {
      const refused = await post(t.app, apiPaths.totpDisable, { password: user.password, code: used }, as(session));
      expect(refused.json()).toEqual({ code: [serverMessages.invalidCode] });
      const status = await t.app.inject({ method: 'GET', url: apiPaths.totp, ...as(session) });
      expect(status.json()).toEqual({ enabled: true, recovery_codes_left: 9 });
    }
    expect((await loginStep(t.app, user)).mfa_required).toBe(true);
  });

  // Row locks are PostgreSQL's: SQLite writes one transaction at a time, and cannot deadlock so.
  it.runIf(dialect === 'postgres')(
    'turns off with a recovery code while the account is deleted at the same moment: both done, no deadlock',
    async () => {
      const { user, recovery } = await withTwoStep();
      // A third transaction holds the recovery codes' rows, so that both requests are under way at once.
      const holder = holdRowLocks(t.app.db, (trx) =>
        trx.selectFrom('totp_recovery_codes').select('id').where('user_id', '=', user.userId).forUpdate().execute(),
      );
      try {
        await holder.taken;
        const off = post(t.app, apiPaths.totpDisable, { password: user.password, code: recovery[1]! }, as(user));
        // Both within the pool's 5 s query timeout (db/database.ts), which the waiting statements count against.
        await expect.poll(waiting, { timeout: 2_000 }).toBe(1);
        const deleted = post(t.app, apiPaths.deleteAccount, { password: user.password }, as(user));
        await expect.poll(waiting, { timeout: 2_000 }).toBe(2);
        holder.release();
        await holder.done;
        const [offAnswer, deletedAnswer] = await Promise.all([off, deleted]);
        expect(offAnswer.statusCode, offAnswer.body).toBe(200);
        expect(deletedAnswer.statusCode, deletedAnswer.body).toBe(204);
      } finally {
        holder.release();
        await holder.done;
      }
    },
  );

  it('counts codes refused when turning it on against the login limit of the account', async () => {
    const limited = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '3/900' });
    try {
      const user = await createUser(limited);
      const setup = await post(limited.app, apiPaths.totpSetup, { password: user.password }, as(user));
      const { secret } = setup.json() as { secret: string };
      const confirm = (code: string) => post(limited.app, apiPaths.totpConfirm, { code }, as(user));
      // The right code refunds its count: a success never uses up the limit.
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await confirm(String(100000 + i))).statusCode);
      // Three wrong codes, then the limit, for the right code too: it stays off.
      expect(statuses).toEqual([400, 400, 400, 429]);
      expect((await confirm(await codeOf(secret))).statusCode).toBe(429);
      expect((await limited.app.twoStep.status(user.userId)).enabled).toBe(false);
    } finally {
      await limited.close();
    }
  });

  it('turning it on refunds the count of the right code, and of a confirmation with nothing set up', async () => {
    const limited = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '2/900' });
    try {
      const user = await createUser(limited);
      const confirm = (code: string) => post(limited.app, apiPaths.totpConfirm, { code }, as(user));
      for (let i = 0; i < 3; i += 1)
        expect((await confirm('123456')).json()).toEqual({ code: [serverMessages.totpNotSetUp] });
      const setup = await post(limited.app, apiPaths.totpSetup, { password: user.password }, as(user));
      const { secret } = setup.json() as { secret: string };
      expect((await confirm('000000')).statusCode).toBe(400);
      expect((await confirm(await codeOf(secret))).statusCode).toBe(200);
      // One wrong code counted in all: the login's password step still has one attempt left.
      expect((await login(limited.app, user.email, 'not it')).statusCode).toBe(401);
      expect((await login(limited.app, user.email, 'not it')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('counts codes refused when turning it off against the login limit of the account', async () => {
    const limited = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '3/900' });
    try {
      const { user, secret } = await withTwoStep(limited);
      nextStep(); // the confirmation used this step's code
      const session = (
        await codeStep(limited.app, (await loginStep(limited.app, user)).mfa_token!, await codeOf(secret))
      ).json() as { access: string };
      const turnOff = (code: string) =>
        post(limited.app, apiPaths.totpDisable, { password: user.password, code }, as(session));
      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await turnOff(String(100000 + i))).statusCode);
      // Three wrong codes, then the limit, for the right code too: it stays on.
      expect(statuses).toEqual([400, 400, 400, 429]);
      nextStep();
      expect((await turnOff(await codeOf(secret))).statusCode).toBe(429);
      expect((await limited.app.twoStep.status(user.userId)).enabled).toBe(true);
    } finally {
      await limited.close();
    }
  });

  it('refuses the legacy login of an account with two-step sign-in; turns off with password and code', async () => {
    const { user, secret } = await withTwoStep();
    const legacy = await post(t.app, apiPaths.apiTokenAuth, { username: user.email, password: user.password });
    expect(legacy.statusCode).toBe(400);
    expect(legacy.json()).toEqual({ non_field_errors: [serverMessages.totpLegacyLogin] });

    nextStep();
    const code = await codeOf(secret);
    const wrongPassword = await post(t.app, apiPaths.totpDisable, { password: 'nope', code }, as(user));
    expect(wrongPassword.json()).toEqual({ password: [serverMessages.wrongPassword] });
    const wrongCode = await post(t.app, apiPaths.totpDisable, { password: user.password, code: '000000' }, as(user));
    expect(wrongCode.json()).toEqual({ code: [serverMessages.invalidCode] });
    const since = peer.messages.length;
    const off = await post(t.app, apiPaths.totpDisable, { password: user.password, code }, as(user));
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ status: 'OK' });
    await peer.waitForMail({ to: user.email, since, subject: 'Two-step sign-in was turned off' });
    expect((await loginStep(t.app, user)).access).toBeDefined();
    expect(
      await t.app.db.selectFrom('totp_recovery_codes').select('id').where('user_id', '=', user.userId).execute(),
    ).toEqual([]);
    expect((await post(t.app, apiPaths.totpDisable, { password: user.password, code }, as(user))).json()).toEqual({
      non_field_errors: [serverMessages.totpNotOn],
    });
  });

  it('a login whose password was checked before two-step sign-in was turned on gets the code step, not a session', async () => {
    for (const legacy of [false, true]) {
      const user = await createUser(t);
      let secret = '';
      // Turned on (set up, confirmed) between the login's password check and its session's start.
      const spy = afterNextCall(t.app.passwords, 'verify', async () => {
        const setup = await post(t.app, apiPaths.totpSetup, { password: user.password }, as(user));
        secret = (setup.json() as { secret: string }).secret;
        const on = await post(t.app, apiPaths.totpConfirm, { code: await codeOf(secret) }, as(user));
        expect(on.statusCode, on.body).toBe(200);
      });
      try {
        if (legacy) {
          const res = await post(t.app, apiPaths.apiTokenAuth, { username: user.email, password: user.password });
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json()).toEqual({ non_field_errors: [serverMessages.totpLegacyLogin] });
        } else {
          const res = await login(t.app, user.email, user.password);
          expect(res.statusCode, res.body).toBe(200);
          const answer = res.json() as { mfa_required?: true; mfa_token?: string; refresh?: string };
          expect(answer.refresh).toBeUndefined();
          expect(answer.mfa_required).toBe(true);
          nextStep();
          const signedIn = await codeStep(t.app, answer.mfa_token!, await codeOf(secret));
          expect(signedIn.statusCode, signedIn.body).toBe(200);
          vi.useRealTimers();
        }
        expect(spy).toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
      // The session that turned it on, and the code step's: none of the password alone.
      expect((await listLiveSessions(t.app.db, user.userId)).length).toBe(legacy ? 1 : 2);
    }
  });

  it('setting up, turning on or turning off commits nothing once the caller has logged out meanwhile: 401', async () => {
    const totpOf = (user: TestUser) =>
      t.app.db
        .selectFrom('users')
        .select(['totp_secret', 'totp_pending_secret'])
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow();
    const logOut = (user: TestUser) =>
      post(t.app, apiPaths.logout, undefined, { headers: { authorization: `Token ${user.refresh}` } });
    /** Logs the caller's session out while its request is under way: once its password was checked. */
    const loggedOutDuring = (user: TestUser) => afterNextCall(t.app.passwords, 'verify', () => logOut(user));
    const refused = async (url: string, body: object, user: TestUser, during: { mockRestore(): void }) => {
      try {
        const res = await post(t.app, url, body, as(user));
        expect(during).toHaveBeenCalled();
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toEqual(tokenNotValid);
      } finally {
        during.mockRestore();
      }
    };

    const settingUp = await createUser(t);
    const setupBody = { password: settingUp.password };
    await refused(apiPaths.totpSetup, setupBody, settingUp, loggedOutDuring(settingUp));
    expect(await totpOf(settingUp)).toEqual({ totp_secret: null, totp_pending_secret: null });

    const turningOn = await createUser(t);
    const setup = await post(t.app, apiPaths.totpSetup, { password: turningOn.password }, as(turningOn));
    const code = await codeOf((setup.json() as { secret: string }).secret);
    // (no password here: the logout comes once the session was checked, before the code is)
    const during = beforeNextCall(t.app.twoStep, 'confirm', () => logOut(turningOn));
    await refused(apiPaths.totpConfirm, { code }, turningOn, during);
    expect((await totpOf(turningOn)).totp_secret).toBeNull();

    const { user: turningOff, recovery } = await withTwoStep();
    const offBody = { password: turningOff.password, code: recovery[0]! };
    await refused(apiPaths.totpDisable, offBody, turningOff, loggedOutDuring(turningOff));
    expect((await totpOf(turningOff)).totp_secret).not.toBeNull();
    const left = await t.app.db
      .selectFrom('totp_recovery_codes')
      .select('id')
      .where('user_id', '=', turningOff.userId)
      .where('used_at', 'is', null)
      .execute();
    expect(left.length).toBe(10);
  });

  it('refuses setting up or turning off when the password changed while it was checked (400, as a wrong one)', async () => {
    for (const off of [false, true]) {
      const { user, recovery } = off ? await withTwoStep() : { user: await createUser(t), recovery: [] };
      const password = goodPassword();
      // A password change of the same session (which lives on), between the check and the change.
      const spy = afterNextCall(t.app.passwords, 'verify', async () => {
        const body = { old_password: user.password, new_password: password, confirm: password };
        const res = await t.app.inject({ method: 'PUT', url: apiPaths.changePassword, payload: body, ...as(user) });
        expect(res.statusCode, res.body).toBe(200);
      });
      try {
        const res = off
          ? await post(t.app, apiPaths.totpDisable, { password: user.password, code: recovery[0]! }, as(user))
          : await post(t.app, apiPaths.totpSetup, { password: user.password }, as(user));
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ password: [serverMessages.wrongPassword] });
      } finally {
        spy.mockRestore();
      }
      const row = await t.app.db
        .selectFrom('users')
        .select(['totp_secret', 'totp_pending_secret'])
        .where('id', '=', user.userId)
        .executeTakeFirstOrThrow();
      if (off) {
        expect(row.totp_secret).not.toBeNull();
        expect((await t.app.twoStep.status(user.userId)).recovery_codes_left).toBe(10);
      } else {
        expect(row.totp_pending_secret).toBeNull();
      }
    }
  });

  // Row locks are PostgreSQL's: SQLite writes one transaction at a time, and cannot deadlock so.
  it.runIf(dialect === 'postgres')(
    "a code step and the account's deletion at once: one waits for the other, no deadlock",
    async () => {
      const { user, secret } = await withTwoStep();
      nextStep();
      const token = (await loginStep(t.app, user)).mfa_token!;
      const code = await codeOf(secret);
      vi.useRealTimers();
      // The code step is held in its transaction (its session inserted) while the deletion comes.
      const { spy, release } = holdNextCall(t.app.twoStep, 'useParsed');
      try {
        const step = codeStep(t.app, token, code);
        await expect.poll(() => spy.mock.calls.length, { timeout: 3_000 }).toBe(1);
        const deleted = post(t.app, apiPaths.deleteAccount, { password: user.password }, as(user));
        // Within the pool's 5 s query timeout (db/database.ts), which the waiting statement counts against.
        await expect.poll(waiting, { timeout: 3_000 }).toBe(1);
        release();
        const [stepAnswer, deletedAnswer] = await Promise.all([step, deleted]);
        expect(deletedAnswer.statusCode, deletedAnswer.body).toBe(204);
        // Signed in before the deletion, or found deleted once its session started (mfa_invalid).
        expect([200, 401], stepAnswer.body).toContain(stepAnswer.statusCode);
      } finally {
        release();
        spy.mockRestore();
      }
      expect(await listLiveSessions(t.app.db, user.userId)).toEqual([]);
    },
  );
});
