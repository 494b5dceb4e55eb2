import { existsSync } from 'node:fs';
import path from 'node:path';
import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiPaths, newsItemPath, serverMessages, userSessionPath, type SessionInfo } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { requestReset } from '../../src/auth/password-reset.js';
import { newResetToken } from '../../src/auth/reset-tokens.js';
import { insertResetToken } from '../../src/repositories/reset-tokens.js';
import { listLiveSessions } from '../../src/repositories/sessions.js';
import { goodPassword, login, post, register, sessionStatus, tokenNotValid } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { mailsWaiting, resetLink } from '../helpers/mail.js';
import { multipartBody } from '../helpers/multipart-body.js';
import { afterNextCall } from '../helpers/next-call.js';
import { holdRowLocks, statementsWaitingForLocks } from '../helpers/row-locks.js';
import { bearer, createUser, tokenAuth, uniqueEmail, type TestUser } from '../helpers/users.js';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1';
const LAPTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The account center (docs/api.md, "Account center"), with mail through a real SMTP peer. */
describe.each(dialects)('account center (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await buildTestApp(
      dialect,
      { SMTP_URL: peer.url, MAIL_FROM: 'hello@app.test', RATE_LIMIT_LOGIN: '0', RATE_LIMIT_RESET: '0' },
      { outbox: { baseDelayMs: 50, maxDelayMs: 200, pollMs: 100 } },
    );
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await peer?.stop();
  });

  const as = (user: Pick<TestUser, 'access'>) => ({ headers: bearer(user) });
  /** Asks a password reset for `email`; the token of the link mailed to it. */
  const mailedResetToken = async (email: string) => {
    const since = peer.messages.length;
    await post(t.app, apiPaths.passwordReset, { email, reset_new_password_path: '/resetnewpassword' });
    return resetLink((await peer.waitForMail({ to: email, since, subject: 'Reset your password' })).text).token;
  };
  /** Posts a news item with one file as `who`, as the web app's form does; its id. */
  const postNews = async (
    who: TestUser,
    title: string,
    content = 'x',
    file = { name: `${title}.txt`, bytes: Buffer.from(title) },
  ) => {
    const body = await multipartBody({ title, content }, [file]);
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.localNewsNew,
      headers: { authorization: `Token ${who.refresh}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: number };
  };
  const get = (url: string, user: Pick<TestUser, 'access'>) =>
    t.app.inject({ method: 'GET', url, headers: bearer(user) });
  /** Logs in over HTTP from a device and address: a session with that User-Agent and client address. */
  async function signIn(user: TestUser, userAgent: string, remoteAddress: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.token,
      payload: { email: user.email, password: user.password },
      headers: { 'user-agent': userAgent },
      remoteAddress,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { access: string; refresh: string };
  }
  const sessionsOf = async (user: Pick<TestUser, 'access'>) => {
    const res = await get(apiPaths.userSessions, user);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SessionInfo[];
  };

  describe('sessions', () => {
    it('lists the live sessions, most recently used first, with device, hidden address and "current"', async () => {
      const user = await createUser(t);
      const phone = await signIn(user, PHONE, '203.0.113.77');
      const laptop = await signIn(user, LAPTOP, '2001:db8:85a3:1234::5');
      const list = await sessionsOf(laptop);
      expect(list).toHaveLength(3); // createUser's, the phone's, the laptop's
      const mine = list.find((s) => s.current)!;
      expect(mine).toMatchObject({ user_agent: LAPTOP, ip: '2001:db8:85a3::/48' });
      expect(list.filter((s) => s.current)).toHaveLength(1);
      expect(list.find((s) => s.user_agent === PHONE)).toMatchObject({ ip: '203.0.113.x', current: false });
      const used = list.map((s) => s.last_used_at);
      expect(used).toEqual([...used].sort().reverse());
      // Another user sees none of them.
      expect((await sessionsOf(await createUser(t))).map((s) => s.id)).not.toContain(mine.id);
      expect((await sessionsOf(phone)).find((s) => s.current)?.user_agent).toBe(PHONE);
    });

    it('writes last_used_at at most once a minute, and a refresh records the device and address', async () => {
      const user = await createUser(t);
      const phone = await signIn(user, PHONE, '198.51.100.7');
      const row = () =>
        t.app.db
          .selectFrom('sessions')
          .select(['id', 'last_used_at', 'user_agent', 'ip'])
          .where('user_id', '=', user.userId)
          .where('user_agent', '=', PHONE)
          .executeTakeFirstOrThrow();
      const { id } = await row();
      const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
      await t.app.db.updateTable('sessions').set({ last_used_at: twoMinutesAgo }).where('id', '=', id).execute();
      expect((await get(apiPaths.userProfile, phone)).statusCode).toBe(200);
      const touched = (await row()).last_used_at!;
      expect(Date.parse(touched)).toBeGreaterThan(Date.parse(twoMinutesAgo) + 60_000);
      // Within the minute: no write, however many requests.
      for (let i = 0; i < 5; i += 1) expect((await get(apiPaths.userProfile, phone)).statusCode).toBe(200);
      expect((await row()).last_used_at).toBe(touched);

      const refreshed = await t.app.inject({
        method: 'POST',
        url: apiPaths.tokenRefresh,
        payload: { refresh: phone.refresh },
        headers: { 'user-agent': LAPTOP },
        remoteAddress: '192.0.2.9',
      });
      expect(refreshed.statusCode).toBe(200);
      expect(await row().catch(() => undefined)).toBeUndefined(); // its user agent is now the laptop's
      const after = await t.app.db
        .selectFrom('sessions')
        .select(['user_agent', 'ip'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(after).toEqual({ user_agent: LAPTOP, ip: '192.0.2.9' });
    });

    it('ends one session at once: its refresh and access tokens are refused; 404 for any other id', async () => {
      const user = await createUser(t);
      const phone = await signIn(user, PHONE, '203.0.113.1');
      const laptop = await signIn(user, LAPTOP, '203.0.113.2');
      const phoneId = (await sessionsOf(phone)).find((s) => s.current)!.id;
      const del = (id: string, who: Pick<TestUser, 'access'>) =>
        t.app.inject({ method: 'DELETE', url: userSessionPath(id), headers: bearer(who) });

      const other = await createUser(t);
      const othersId = (await sessionsOf(other)).find((s) => s.current)!.id;
      expect((await del(othersId, laptop)).statusCode).toBe(404); // not the caller's
      expect((await sessionsOf(other)).some((s) => s.id === othersId)).toBe(true);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-session', '..', phoneId.toUpperCase()]) {
        const res = await del(id, laptop);
        expect(res.statusCode, id).toBe(404);
      }
      expect((await t.app.inject({ method: 'DELETE', url: userSessionPath(phoneId) })).statusCode).toBe(401);

      const ended = await del(phoneId, laptop);
      expect(ended.statusCode).toBe(204);
      expect(ended.body).toBe('');
      expect((await get(apiPaths.userProfile, phone)).statusCode).toBe(401);
      expect(await sessionStatus(t.app, phone.refresh)).toEqual([401, 401]);
      expect((await del(phoneId, laptop)).statusCode).toBe(404); // ended already
      expect((await sessionsOf(laptop)).map((s) => s.id)).not.toContain(phoneId);
      expect((await get(apiPaths.userProfile, laptop)).statusCode).toBe(200);
    });

    it("revoke-others ends every session but the caller's and says how many", async () => {
      const user = await createUser(t);
      const phone = await signIn(user, PHONE, '203.0.113.3');
      const laptop = await signIn(user, LAPTOP, '203.0.113.4');
      const res = await post(t.app, apiPaths.revokeOtherSessions, undefined, as(laptop));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ revoked: 2 });
      expect((await get(apiPaths.userProfile, phone)).statusCode).toBe(401);
      expect(await sessionStatus(t.app, user.refresh)).toEqual([401, 401]);
      expect((await sessionsOf(laptop)).map((s) => s.current)).toEqual([true]);
      expect((await post(t.app, apiPaths.revokeOtherSessions, undefined, as(laptop))).json()).toEqual({ revoked: 0 });
      expect((await post(t.app, apiPaths.revokeOtherSessions)).statusCode).toBe(401);
      expect((await t.app.inject({ method: 'GET', url: apiPaths.userSessions })).statusCode).toBe(401);
    });
  });

  describe('e-mail change', () => {
    const change = (user: Pick<TestUser, 'access'>, body: object) => post(t.app, apiPaths.changeEmail, body, as(user));
    const confirm = (token: string) => post(t.app, apiPaths.confirmEmail, { token });

    it('mails a link to the new address and a notice to the old; only the link changes the address, once', async () => {
      const user = await createUser(t);
      const newEmail = uniqueEmail('moved');
      const since = peer.messages.length;
      const res = await change(user, { new_email: newEmail, password: user.password });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'OK' });
      const mail = await peer.waitForMail({ to: newEmail, since });
      expect(mail.subject).toBe('Confirm your new e-mail address');
      const { link, token } = resetLink(mail.text);
      expect(link).toBe(`http://app.test/confirmemail?token=${token}`);
      const notice = await peer.waitForMail({ to: user.email, since });
      expect(notice.subject).toBe('A change of your e-mail address was requested');
      expect(notice.text).toContain(newEmail);
      expect(notice.text).toMatch(/Address: 127\.0\.0\.1/);

      // Nothing has changed yet.
      expect((await get(apiPaths.userProfile, user)).json().email).toBe(user.email);
      const stored = await t.app.db
        .selectFrom('email_change_tokens')
        .select('token_hash')
        .where('user_id', '=', user.userId)
        .execute();
      expect(stored.map((r) => r.token_hash)).not.toContain(token); // hashed at rest

      const since2 = peer.messages.length;
      expect((await confirm(token)).json()).toEqual({ status: 'OK' });
      expect((await get(apiPaths.userProfile, user)).json().email).toBe(newEmail);
      const changed = await peer.waitForMail({ to: user.email, since: since2 });
      expect(changed.subject).toBe('Your e-mail address was changed');
      const again = await confirm(token);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual({ status: 'notfound' });
      expect((await login(t.app, newEmail, user.password)).statusCode).toBe(200);
      expect((await login(t.app, user.email, user.password)).statusCode).toBe(401);
      // The old address is free to register again.
      expect((await register(t.app, user.email, goodPassword())).statusCode).toBe(201);
    });

    it("shows the new address as the author of the account's news at once, through every instance", async () => {
      const user = await createUser(t);
      const reader = await createUser(t);
      const { id } = await postNews(user, 'Moved');
      const other = await buildApp(t.config);
      try {
        const authors = async () =>
          Promise.all(
            [t.app, other].flatMap((app) => [
              app
                .inject({ method: 'GET', url: newsItemPath(id), headers: bearer(reader) })
                .then((r) => r.json().author),
              app
                .inject({ method: 'GET', url: apiPaths.localNews, headers: bearer(reader) })
                .then((r) => (r.json() as { id: number; author: string }[]).find((item) => item.id === id)?.author),
            ]),
          );
        // Read twice, so that every instance keeps the answers (an item from its second read on).
        expect(await authors()).toEqual(Array(4).fill(user.email));
        expect(await authors()).toEqual(Array(4).fill(user.email));
        const newEmail = uniqueEmail('author');
        const since = peer.messages.length;
        expect((await change(user, { new_email: newEmail, password: user.password })).statusCode).toBe(200);
        const { token } = resetLink((await peer.waitForMail({ to: newEmail, since })).text);
        expect((await confirm(token)).json()).toEqual({ status: 'OK' });
        expect(await authors()).toEqual(Array(4).fill(newEmail));
      } finally {
        await other.close();
      }
    });

    it('voids a change waiting for its link when the password changes or is reset (a stolen session asked for it)', async () => {
      const user = await createUser(t);
      /** Asks to move `user` to a new address; the link's token. */
      const asked = async (who: Pick<TestUser, 'access' | 'password'>) => {
        const newEmail = uniqueEmail('thief');
        const since = peer.messages.length;
        expect((await change(who, { new_email: newEmail, password: who.password })).statusCode).toBe(200);
        return resetLink((await peer.waitForMail({ to: newEmail, since })).text).token;
      };

      // A password change by the owner voids the change asked for before it, and a reset link too.
      const beforeChange = await asked(user);
      const resetToken = await mailedResetToken(user.email);
      const password = goodPassword();
      const changed = await t.app.inject({
        method: 'PUT',
        url: apiPaths.changePassword,
        payload: { old_password: user.password, new_password: password, confirm: password },
        headers: bearer(user),
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect((await confirm(beforeChange)).json()).toEqual({ status: 'notfound' });
      const staleReset = await post(t.app, apiPaths.passwordResetValidateToken, { token: resetToken });
      expect(staleReset.json()).toEqual({ status: 'notfound' });

      // A reset voids the change asked for before it; one asked for after the reset works.
      const owner = { access: (await signIn({ ...user, password }, LAPTOP, '203.0.113.9')).access, password };
      const beforeReset = await asked(owner);
      const token = await mailedResetToken(user.email);
      const reset = goodPassword();
      const done = await post(t.app, apiPaths.passwordResetConfirm, { token, password: reset, confirm: reset });
      expect(done.statusCode, done.body).toBe(200);
      expect((await confirm(beforeReset)).json()).toEqual({ status: 'notfound' });
      const after = {
        access: (await signIn({ ...user, password: reset }, LAPTOP, '203.0.113.9')).access,
        password: reset,
      };
      expect((await get(apiPaths.userProfile, after)).json().email).toBe(user.email);
      const afterReset = await asked(after);
      expect((await confirm(afterReset)).json()).toEqual({ status: 'OK' });
    });

    it('voids the reset links mailed to the old address once the change is confirmed, also one still being stored', async () => {
      const user = await createUser(t);
      const mailed = await mailedResetToken(user.email);
      // A reset asked for now, its token and mail stored after the answer (password-reset.ts): that
      // step is held back until the change has been confirmed.
      const storeLater = await requestReset(t.app, '203.0.113.7', user.email, '/resetnewpassword', t.app.log);
      expect(storeLater).toBeDefined();

      const newEmail = uniqueEmail('moved');
      const since = peer.messages.length;
      expect((await change(user, { new_email: newEmail, password: user.password })).statusCode).toBe(200);
      const { token } = resetLink((await peer.waitForMail({ to: newEmail, since })).text);
      expect((await confirm(token)).json()).toEqual({ status: 'OK' });

      const password = goodPassword();
      expect((await post(t.app, apiPaths.passwordResetValidateToken, { token: mailed })).json()).toEqual({
        status: 'notfound',
      });
      const used = await post(t.app, apiPaths.passwordResetConfirm, { token: mailed, password, confirm: password });
      expect(used.json()).toEqual({ status: 'notfound' });
      const tokensOf = () =>
        t.app.db.selectFrom('password_reset_tokens').select('id').where('user_id', '=', user.userId).execute();
      const before = (await tokensOf()).length;
      await storeLater!();
      expect((await tokensOf()).length).toBe(before);
      expect((await login(t.app, newEmail, user.password)).statusCode).toBe(200);
    });

    it('answers a taken new address the same, mailing it a notice without a link; the address stays', async () => {
      const user = await createUser(t);
      const owner = await createUser(t);
      const since = peer.messages.length;
      const res = await change(user, { new_email: owner.email.toUpperCase(), password: user.password });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'OK' });
      const mail = await peer.waitForMail({ to: owner.email, since });
      expect(mail.subject).toBe('Someone tried to move an account to your address');
      expect(mail.text).not.toMatch(/token=/);
      const rows = await t.app.db
        .selectFrom('email_change_tokens')
        .select('id')
        .where('user_id', '=', user.userId)
        .execute();
      expect(rows).toEqual([]);
    });

    it('refuses a wrong password (as a failed login), the current address, a bad address; refuses expired links', async () => {
      const user = await createUser(t);
      const wrong = await change(user, { new_email: uniqueEmail(), password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ password: [serverMessages.wrongPassword] });
      const same = await change(user, { new_email: user.email.toUpperCase(), password: user.password });
      expect(same.json()).toEqual({ new_email: [serverMessages.sameEmail] });
      const bad = await change(user, { new_email: 'not-an-address', password: user.password });
      expect(bad.json()).toEqual({ new_email: [serverMessages.invalidEmail] });
      expect(
        (await post(t.app, apiPaths.changeEmail, { new_email: uniqueEmail(), password: user.password })).statusCode,
      ).toBe(401);

      const other = await createUser(t);
      const since = peer.messages.length;
      const newEmail = uniqueEmail('late');
      expect((await change(other, { new_email: newEmail, password: other.password })).statusCode).toBe(200);
      const { token } = resetLink((await peer.waitForMail({ to: newEmail, since })).text);
      await t.app.db
        .updateTable('email_change_tokens')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('user_id', '=', other.userId)
        .execute();
      const expired = await confirm(token);
      expect([expired.statusCode, expired.json()]).toEqual([404, { status: 'notfound' }]);
      // Unknown tokens, of a token's shape or not: 404 {status: "notfound"} (docs/api.md, "Account center").
      for (const unknown of ['x'.repeat(43), 'short']) {
        const res = await confirm(unknown);
        expect([res.statusCode, res.json()], unknown).toEqual([404, { status: 'notfound' }]);
      }
      // A blank or missing token is a field error (docs/api.md, "Calls"), not a lookup.
      const blank = await confirm('');
      expect([blank.statusCode, blank.json()]).toEqual([400, { token: [serverMessages.blank] }]);
      const missing = await post(t.app, apiPaths.confirmEmail, {});
      expect([missing.statusCode, missing.json()]).toEqual([400, { token: [serverMessages.fieldRequired] }]);
      expect((await get(apiPaths.userProfile, other)).json().email).toBe(other.email);
    });

    it('is limited like password resets (RATE_LIMIT_RESET)', async () => {
      const limited = await buildTestApp(dialect, { RATE_LIMIT_RESET: '3/3600' });
      try {
        const user = await createUser(limited);
        const statuses: number[] = [];
        for (let i = 0; i < 4; i += 1) {
          const body = { new_email: uniqueEmail(), password: user.password };
          statuses.push((await post(limited.app, apiPaths.changeEmail, body, as(user))).statusCode);
        }
        expect(statuses).toEqual([200, 200, 200, 429]);
      } finally {
        await limited.close();
      }
    });

    it('stores no change, and mails no link, when a reset lands while the password is checked (a stolen session asked): 401', async () => {
      const user = await createUser(t);
      const thief = uniqueEmail('thief');
      const { token, hash } = newResetToken();
      await insertResetToken(t.app.db, user.userId, hash, 3600);
      const password = goodPassword();
      const spy = afterNextCall(t.app.passwords, 'verify', async () => {
        const reset = await post(t.app, apiPaths.passwordResetConfirm, { token, password, confirm: password });
        expect(reset.statusCode, reset.body).toBe(200);
      });
      try {
        const res = await change(user, { new_email: thief, password: user.password });
        expect(spy).toHaveBeenCalled();
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json()).toEqual(tokenNotValid);
      } finally {
        spy.mockRestore();
      }
      const tokens = t.app.db.selectFrom('email_change_tokens').select('id').where('user_id', '=', user.userId);
      expect(await tokens.execute()).toEqual([]);
      const mails = t.app.db.selectFrom('mail_outbox').select('id').where('recipient', '=', thief);
      expect(await mails.execute()).toEqual([]);
    });
  });

  it('exports the profile, the sessions and the news items with their files as one JSON download', async () => {
    const user = await createUser(t);
    await postNews(user, 'Exported', 'mine', { name: 'a.txt', bytes: Buffer.from('hello') });
    const res = await get(apiPaths.exportAccount, user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="account-export.json"/);
    const data = res.json();
    expect(data.profile.email).toBe(user.email);
    expect(data.sessions.some((s: SessionInfo) => s.current)).toBe(true);
    expect(data.news_items).toHaveLength(1);
    expect(data.news_items[0]).toMatchObject({ title: 'Exported', content: 'mine', author: user.email });
    const file = data.news_items[0].files[0];
    expect(file).toMatchObject({ name: 'a.txt', size: 5, content_type: 'text/plain' });
    expect((await t.app.inject({ method: 'GET', url: file.url })).body).toBe('hello');
    expect((await t.app.inject({ method: 'GET', url: apiPaths.exportAccount })).statusCode).toBe(401);
  });

  describe('deletion', () => {
    it('deletes everything of the account, files after the commit; the e-mail can register again', async () => {
      const user = await createUser(t);
      const bystander = await createUser(t);
      const mine = [await postNews(user, 'one'), await postNews(user, 'two')];
      const theirs = await postNews(bystander, 'kept');
      const storage = async (newsId: number) =>
        (await t.app.db.selectFrom('news_files').select('storage_name').where('news_id', '=', newsId).execute()).map(
          (r) => path.join(t.dataDir, 'uploads', r.storage_name),
        );
      const myFiles = (await Promise.all(mine.map((item) => storage(item.id)))).flat();
      expect(myFiles.every((f) => existsSync(f))).toBe(true);

      const wrong = await post(t.app, apiPaths.deleteAccount, { password: 'not it' }, as(user));
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ password: [serverMessages.wrongPassword] });
      const since = peer.messages.length;
      const res = await post(t.app, apiPaths.deleteAccount, { password: user.password }, as(user));
      expect(res.statusCode, res.body).toBe(204);

      expect(
        await t.app.db.selectFrom('users').select('id').where('id', '=', user.userId).executeTakeFirst(),
      ).toBeUndefined();
      for (const table of ['sessions', 'password_reset_tokens', 'email_change_tokens'] as const)
        expect(await t.app.db.selectFrom(table).select('user_id').where('user_id', '=', user.userId).execute()).toEqual(
          [],
        );
      expect(
        await t.app.db.selectFrom('news_items').select('id').where('author_id', '=', user.userId).execute(),
      ).toEqual([]);
      expect(myFiles.some((f) => existsSync(f))).toBe(false);
      expect((await get(newsItemPath(mine[0]!.id), bystander)).statusCode).toBe(404);
      expect((await get(newsItemPath(theirs.id), bystander)).statusCode).toBe(200);
      expect((await get(apiPaths.userProfile, user)).statusCode).toBe(401);
      expect(await sessionStatus(t.app, user.refresh)).toEqual([401, 401]);
      const notice = await peer.waitForMail({ to: user.email, since });
      expect(notice.subject).toBe('Your account was deleted');
      expect((await register(t.app, user.email, goodPassword())).statusCode).toBe(201);
    });

    // Row locks are PostgreSQL's: SQLite writes one transaction at a time, and cannot deadlock so.
    // A third transaction holds rows so that the call and the deletion wait in the order that, with
    // the locks taken the other way round, deadlocked (the deletion answered 500 or 503).
    const deletionAlongside = async (
      user: TestUser,
      lock: Parameters<typeof holdRowLocks>[1],
      call: () => Promise<{ statusCode: number; body: string }>,
      deletedStatus = 204,
    ) => {
      const holder = holdRowLocks(t.app.db, lock);
      try {
        await holder.taken;
        const called = call();
        // Both within the pool's 5 s query timeout (db/database.ts), which waiting statements count against.
        await expect.poll(() => statementsWaitingForLocks(t.app.db), { timeout: 2_000 }).toBe(1);
        const deleted = post(t.app, apiPaths.deleteAccount, { password: user.password }, as(user));
        await expect.poll(() => statementsWaitingForLocks(t.app.db), { timeout: 2_000 }).toBe(2);
        holder.release();
        await holder.done;
        const [callAnswer, deletedAnswer] = await Promise.all([called, deleted]);
        expect(deletedAnswer.statusCode, deletedAnswer.body).toBe(deletedStatus);
        return callAnswer;
      } finally {
        holder.release();
        await holder.done;
      }
    };

    it.runIf(dialect === 'postgres')('goes alongside an edit of one of its items: both done, no deadlock', async () => {
      const user = await createUser(t);
      const { id } = await postNews(user, 'Edited while deleted');
      // The item's row held: the edit waits for it, the deletion then for the edit's session.
      const edited = await deletionAlongside(
        user,
        (trx) => trx.selectFrom('news_items').select('id').where('id', '=', id).forUpdate().execute(),
        () =>
          t.app.inject({ method: 'PATCH', url: newsItemPath(id), headers: bearer(user), payload: { title: 'New' } }),
      );
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await t.app.db.selectFrom('news_items').select('id').where('id', '=', id).execute()).toEqual([]);
    });

    it.runIf(dialect === 'postgres')(
      'goes alongside a password reset of the account: no deadlock; the reset, which ends its session, stands',
      async () => {
        const user = await createUser(t);
        const since = peer.messages.length;
        await post(t.app, apiPaths.passwordReset, { email: user.email, reset_new_password_path: '/resetnewpassword' });
        const { token } = resetLink(
          (await peer.waitForMail({ to: user.email, since, subject: 'Reset your password' })).text,
        );
        const password = goodPassword();
        // The reset tokens' rows held: the reset waits for them, the deletion then for the user's row,
        // and finds its session ended by the reset (401): the account stays, with the new password.
        const reset = await deletionAlongside(
          user,
          (trx) =>
            trx
              .selectFrom('password_reset_tokens')
              .select('id')
              .where('user_id', '=', user.userId)
              .forUpdate()
              .execute(),
          () => post(t.app, apiPaths.passwordResetConfirm, { token, password, confirm: password }),
          401,
        );
        expect(reset.statusCode, reset.body).toBe(200);
        expect((await login(t.app, user.email, password)).statusCode).toBe(200);
      },
    );

    it('deletes nothing when the session ends (401) or the password changes (400) while the password is checked', async () => {
      for (const during of ['logout', 'password change'] as const) {
        const user = await createUser(t);
        const password = goodPassword();
        const spy = afterNextCall(t.app.passwords, 'verify', async () => {
          const res =
            during === 'logout'
              ? await post(t.app, apiPaths.logout, undefined, { headers: tokenAuth(user) })
              : await t.app.inject({
                  method: 'PUT',
                  url: apiPaths.changePassword,
                  payload: { old_password: user.password, new_password: password, confirm: password },
                  ...as(user),
                });
          expect(res.statusCode, res.body).toBe(200);
        });
        try {
          const res = await post(t.app, apiPaths.deleteAccount, { password: user.password }, as(user));
          expect(spy).toHaveBeenCalled();
          expect(res.statusCode, res.body).toBe(during === 'logout' ? 401 : 400);
          expect(res.json()).toEqual(
            during === 'logout' ? tokenNotValid : { password: [serverMessages.wrongPassword] },
          );
        } finally {
          spy.mockRestore();
        }
        const row = await t.app.db.selectFrom('users').select('id').where('id', '=', user.userId).execute();
        expect(row).toEqual([{ id: user.userId }]);
      }
    });

    it('counts a wrong password as a failed login: the login limit stops guessing', async () => {
      const limited = await buildTestApp(dialect, { RATE_LIMIT_LOGIN: '5/900' });
      try {
        const user = await createUser(limited);
        const remove = (password: string, who: Partial<TestUser> = user) =>
          post(limited.app, apiPaths.deleteAccount, { password }, who.access ? as({ access: who.access }) : {});
        const statuses: number[] = [];
        for (let i = 0; i < 6; i += 1) statuses.push((await remove(`guess ${i}`)).statusCode);
        expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
        expect((await remove(user.password)).statusCode).toBe(429);
        expect((await login(limited.app, user.email, user.password)).statusCode).toBe(429);
        const profile = await limited.app.inject({ method: 'GET', url: apiPaths.userProfile, headers: bearer(user) });
        expect(profile.statusCode).toBe(200); // the account is still there
        expect((await remove(user.password, {})).statusCode).toBe(401);
      } finally {
        await limited.close();
      }
    });
  });

  describe('security notices', () => {
    it('mails a sign-in from a device not seen in 30 days (29 days: no notice; 31: a notice); and password changes and resets', async () => {
      const user = await createUser(t);
      let since = peer.messages.length;
      await signIn(user, PHONE, '203.0.113.50');
      const notice = await peer.waitForMail({ to: user.email, since, subject: 'New sign-in to your account' });
      expect(notice.text).toContain(PHONE);
      expect(notice.text).toContain('203.0.113.50');
      expect(notice.text).toContain('http://app.test/resetpasswordrequest');

      // The same device again: no notice. Seen 29 days ago: still no notice. Seen 31 days ago: a notice.
      const signInNotices = async () =>
        (
          await t.app.db
            .selectFrom('mail_outbox')
            .select('id')
            .where('recipient', '=', user.email)
            .where('subject', '=', 'New sign-in to your account')
            .execute()
        ).length;
      const newSignIns = () =>
        peer.messages
          .slice(since)
          .filter((m) => m.to.includes(user.email) && m.subject === 'New sign-in to your account');
      /** Every mail the calls so far queued has been handed to the peer (none waits, none is yet to be queued). */
      const mailSettled = async () => {
        await t.app.afterAnswer.settled();
        await expect.poll(() => mailsWaiting(t.app.db), { timeout: 10_000, interval: 5 }).toBe(0);
      };
      /** Makes every session of `userAgent` look last used (and begun) `days` ago; how many it changed. */
      const lastSeen = async (userAgent: string, days: number) => {
        const at = Date.now() - days * 24 * 3600_000;
        const result = await t.app.db
          .updateTable('sessions')
          .set({
            created_at: new Date(at).toISOString(),
            last_used_at: new Date(at).toISOString(),
            expires_at: new Date(at + t.config.refreshTokenLifetime * 1000).toISOString(),
          })
          .where('user_id', '=', user.userId)
          .where('user_agent', '=', userAgent)
          .executeTakeFirst();
        return Number(result.numUpdatedRows);
      };
      await mailSettled();
      expect(await signInNotices()).toBe(1);

      since = peer.messages.length;
      await signIn(user, PHONE, '203.0.113.51');
      await mailSettled();
      expect(newSignIns()).toEqual([]);
      expect(await signInNotices()).toBe(1);

      expect(await lastSeen(PHONE, 29)).toBe(2); // both of the phone's sessions
      await signIn(user, PHONE, '203.0.113.52');
      await mailSettled();
      expect(newSignIns()).toEqual([]);
      expect(await signInNotices()).toBe(1);

      expect(await lastSeen(PHONE, 31)).toBe(3);
      await signIn(user, PHONE, '203.0.113.53');
      const next = await peer.waitForMail({ to: user.email, since, subject: 'New sign-in to your account' });
      expect(next.text).toContain(PHONE);
      expect(next.text).toContain('203.0.113.53');
      await mailSettled();
      expect(newSignIns()).toHaveLength(1);
      expect(await signInNotices()).toBe(2);

      const password = goodPassword();
      since = peer.messages.length;
      const changed = await t.app.inject({
        method: 'PUT',
        url: apiPaths.changePassword,
        payload: { old_password: user.password, new_password: password, confirm: password },
        headers: { ...bearer(user), 'user-agent': PHONE },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const passwordNotice = await peer.waitForMail({ to: user.email, since, subject: 'Your password was changed' });
      expect(passwordNotice.text).toContain(PHONE);

      const token = await mailedResetToken(user.email);
      const again = goodPassword();
      expect(
        (await post(t.app, apiPaths.passwordResetConfirm, { token, password: again, confirm: again })).statusCode,
      ).toBe(200);
      await peer.waitForMail({ to: user.email, since, subject: 'Your password was reset' });
    });

    it('a sign-in whose new-device notice cannot be stored fails whole: 503, and no session is left', async () => {
      const user = await createUser(t);
      const before = await listLiveSessions(t.app.db, user.userId);
      const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      // The notice's insert fails once, whether it is stored on its own or in the session's transaction.
      const spies = [
        vi.spyOn(t.app.mailer, 'send').mockRejectedValueOnce(busy()),
        vi.spyOn(t.app.mailer, 'queue').mockRejectedValueOnce(busy()),
      ];
      try {
        const res = await t.app.inject({
          method: 'POST',
          url: apiPaths.token,
          payload: { email: user.email, password: user.password },
          headers: { 'user-agent': PHONE },
        });
        expect(res.statusCode, res.body).toBe(503);
      } finally {
        spies.forEach((spy) => spy.mockRestore());
      }
      expect(await listLiveSessions(t.app.db, user.userId)).toEqual(before);
      // Tried again, it signs in, and the notice goes out.
      const since = peer.messages.length;
      await signIn(user, PHONE, '203.0.113.60');
      await peer.waitForMail({ to: user.email, since, subject: 'New sign-in to your account' });
    });
  });
});
