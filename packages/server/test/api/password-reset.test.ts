import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { goodPassword, login, multipart, post, sessionStatus } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { emlFiles, mailsWaiting, parseEml, resetLink, waitForEml } from '../helpers/mail.js';
import { createUser, uniqueEmail } from '../helpers/users.js';

const PATH = '/resetnewpassword';

/**
 * Password reset with no SMTP_URL: each mail is an .eml file in DATA_DIR/mail. The same calls through
 * a real SMTP peer are in password-reset-smtp.test.ts.
 */
describe.each(dialects)('password reset, mail as .eml files (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // Many requests from one test client: the reset limit has its own suite (rate-limits.test.ts).
    t = await buildTestApp(dialect, { RATE_LIMIT_RESET: '1000/3600' }, { outbox: { pollMs: 50 } });
  });
  afterAll(() => t.close());

  /** Requests a reset for `email` and answers the token of the mail that arrives. */
  async function requestToken(email: string): Promise<string> {
    const before = new Set(emlFiles(t.dataDir).map((f) => f.name));
    const res = await post(t.app, apiPaths.passwordReset, { email, reset_new_password_path: PATH });
    expect(res.statusCode).toBe(200);
    // The reset mail among the new ones (a login just before may have queued a new-device notice).
    let mail: Awaited<ReturnType<typeof parseEml>> | undefined;
    for (let count = before.size + 1; !mail; count += 1) {
      const fresh = (await waitForEml(t.dataDir, count)).filter((f) => !before.has(f.name));
      const parsed = await Promise.all(fresh.map((f) => parseEml(f.text)));
      mail = parsed.find((m) => m.subject === 'Reset your password');
    }
    expect(mail.to).toBe(email);
    const { link, token } = resetLink(mail.text);
    expect(link).toBe(`http://app.test${PATH}?token=${token}`);
    return token;
  }
  const validate = (token: string) => post(t.app, apiPaths.passwordResetValidateToken, { token });
  const confirm = (token: string, password: string, again = password) =>
    post(t.app, apiPaths.passwordResetConfirm, { token, password, confirm: again });

  it('mails an .eml with a PUBLIC_URL link whose token is ≥ 128 bits and stored only hashed', async () => {
    const user = await createUser(t);
    const token = await requestToken(user.email);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const rows = await t.app.db.selectFrom('password_reset_tokens').select('token_hash').execute();
    expect(rows.some((r) => r.token_hash.includes(token))).toBe(false);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('never builds the link from the Host header', async () => {
    const user = await createUser(t);
    const before = emlFiles(t.dataDir).length;
    await t.app.inject({
      method: 'POST',
      url: apiPaths.passwordReset,
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      payload: { email: user.email, reset_new_password_path: PATH },
    });
    const mail = await parseEml((await waitForEml(t.dataDir, before + 1)).at(-1)!.text);
    expect(mail.to).toBe(user.email);
    expect(mail.text).toContain('http://app.test/resetnewpassword?token=');
    expect(mail.text).not.toContain('evil.example');
  });

  it('answers an unknown e-mail exactly like a known one, and mails nothing', async () => {
    const user = await createUser(t);
    await requestToken(user.email);
    const before = emlFiles(t.dataDir).map((f) => f.name);
    const ghost = uniqueEmail('ghost');
    const known = await post(t.app, apiPaths.passwordReset, { email: user.email, reset_new_password_path: PATH });
    const unknown = await post(t.app, apiPaths.passwordReset, { email: ghost, reset_new_password_path: PATH });
    expect([known.statusCode, unknown.statusCode]).toEqual([200, 200]);
    expect(unknown.body).toBe(known.body);
    expect(known.json()).toEqual({ status: 'OK' });
    // The work both calls left for after their answers is done, and every mail it queued delivered
    // (a file is on disk before the outbox marks its mail delivered): nothing more is coming.
    await t.app.afterAnswer.settled();
    await expect.poll(() => mailsWaiting(t.app.db), { timeout: 10_000, interval: 5 }).toBe(0);
    const queuedForGhost = await t.app.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', ghost)
      .execute();
    expect(queuedForGhost).toEqual([]);
    const fresh = emlFiles(t.dataDir).filter((f) => !before.includes(f.name));
    const mails = await Promise.all(fresh.map((f) => parseEml(f.text)));
    expect(mails.map((m) => [m.to, m.subject])).toEqual([[user.email, 'Reset your password']]);
  });

  it('rejects a reset path that is not a plain path on this site', async () => {
    for (const path of [
      'https://evil.example/x',
      '//evil.example/x',
      '/\\evil.example',
      'resetnewpassword',
      '/x?next=y',
    ]) {
      const res = await post(t.app, apiPaths.passwordReset, { email: 'a@example.com', reset_new_password_path: path });
      expect(res.statusCode, path).toBe(400);
      expect(res.json()).toEqual({ reset_new_password_path: ['Enter a path that starts with a single "/".'] });
    }
    // A bad address and a bad path are both answered at once.
    const both = await post(t.app, apiPaths.passwordReset, { email: 'bad', reset_new_password_path: '//evil.example' });
    expect([both.statusCode, both.json()]).toEqual([
      400,
      {
        email: ['Enter a valid email address.'],
        reset_new_password_path: ['Enter a path that starts with a single "/".'],
      },
    ]);
    const missing = await post(t.app, apiPaths.passwordReset, {});
    expect(missing.json()).toEqual({
      email: ['This field is required.'],
      reset_new_password_path: ['This field is required.'],
    });
    const badEmail = await post(t.app, apiPaths.passwordReset, { email: 'nope', reset_new_password_path: PATH });
    expect(badEmail.json()).toEqual({ email: ['Enter a valid email address.'] });
  });

  it('validate_token: 200 for a fresh token; 404 {status: notfound} for unknown, used or expired', async () => {
    const user = await createUser(t);
    const token = await requestToken(user.email);
    expect((await validate(token)).json()).toEqual({ status: 'OK' });
    const oneOff = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['x'.repeat(43), 'short', oneOff]) {
      const res = await validate(bad);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ status: 'notfound' });
    }
    await t.app.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', user.userId)
      .execute();
    expect((await validate(token)).statusCode).toBe(404);
    expect((await confirm(token, goodPassword())).statusCode).toBe(404);
  });

  it('confirm: sets the password once, ends every session, and older tokens stop working', async () => {
    const user = await createUser(t);
    const second = (await login(t.app, user.email, user.password)).json();
    const older = await requestToken(user.email);
    const token = await requestToken(user.email);
    const password = goodPassword();
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.passwordResetConfirm,
      ...multipart({ token, password, confirm: password }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    expect(await sessionStatus(t.app, user.refresh)).toEqual([401, 401]);
    expect(await sessionStatus(t.app, second.refresh)).toEqual([401, 401]);
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(401);
    expect((await login(t.app, user.email, password)).statusCode).toBe(200);
    // Used up, and the older link with it.
    expect((await confirm(token, goodPassword())).json()).toEqual({ status: 'notfound' });
    expect((await validate(token)).statusCode).toBe(404);
    expect((await validate(older)).statusCode).toBe(404);
  });

  it('confirm: 400 for a mismatch or a refused password, and the token stays usable', async () => {
    const user = await createUser(t);
    const token = await requestToken(user.email);
    const mismatch = await confirm(token, goodPassword(), goodPassword());
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toEqual({ confirm: ["The two password fields didn't match."] });
    const weak = await confirm(token, '12345678');
    expect(weak.json()).toEqual({ password: ['This password is too common.', 'This password is entirely numeric.'] });
    const missing = await post(t.app, apiPaths.passwordResetConfirm, { token });
    expect(missing.json()).toEqual({ password: ['This field is required.'], confirm: ['This field is required.'] });
    expect((await validate(token)).statusCode).toBe(200);
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(200);
  });

  it('confirm: 404 for a token that was never issued', async () => {
    const res = await confirm('A'.repeat(43), goodPassword());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'notfound' });
  });
});
