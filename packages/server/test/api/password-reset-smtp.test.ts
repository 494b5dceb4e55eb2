import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '@hello/contract';
import { goodPassword, login, post, sessionStatus } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { resetLink } from '../helpers/mail.js';
import { createUser } from '../helpers/users.js';

const PATH = '/resetnewpassword';

/** Password reset with SMTP_URL pointing at a real SMTP peer; mail goes through the durable outbox. */
describe.each(dialects)('password reset through a real SMTP server (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await buildTestApp(
      dialect,
      { SMTP_URL: peer.url, MAIL_FROM: 'hello@app.test', RATE_LIMIT_RESET: '1000/3600' },
      { outbox: { baseDelayMs: 50, maxDelayMs: 200, pollMs: 100 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  const requestReset = (email: string) => post(t.app, apiPaths.passwordReset, { email, reset_new_password_path: PATH });
  const attemptsOf = async (recipient: string) =>
    (
      await t.app.db
        .selectFrom('mail_outbox')
        .select(['attempts'])
        .where('recipient', '=', recipient)
        .executeTakeFirst()
    )?.attempts ?? 0;

  it('round trip: the mail arrives with a PUBLIC_URL link; confirm works once; sessions end; the new password logs in', async () => {
    const user = await createUser(t);
    const since = peer.messages.length;
    expect((await requestReset(user.email)).json()).toEqual({ status: 'OK' });
    const mail = await peer.waitForMail({ to: user.email, since });
    expect(mail.from).toBe('hello@app.test');
    expect(mail.subject).toBe('Reset your password');
    const { link, token } = resetLink(mail.text);
    expect(link).toBe(`http://app.test${PATH}?token=${token}`);

    expect((await post(t.app, apiPaths.passwordResetValidateToken, { token })).statusCode).toBe(200);
    const password = goodPassword();
    const first = await post(t.app, apiPaths.passwordResetConfirm, { token, password, confirm: password });
    expect(first.statusCode).toBe(200);
    const second = await post(t.app, apiPaths.passwordResetConfirm, { token, password, confirm: password });
    expect(second.statusCode).toBe(404);
    expect(second.json()).toEqual({ status: 'notfound' });

    expect(await sessionStatus(t.app, user.refresh)).toEqual([401, 401]);
    expect((await login(t.app, user.email, password)).statusCode).toBe(200);
    expect((await login(t.app, user.email, user.password)).statusCode).toBe(401);

    // Delivered mail keeps no working link in the database.
    const stored = await t.app.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(stored.sent_at).not.toBeNull();
    expect(stored.body_text).not.toContain(token);
  });

  it('SMTP server down: the call still answers 200; the mail is delivered once the server is back', async () => {
    const user = await createUser(t);
    await peer.stop();
    const since = peer.messages.length;
    const res = await requestReset(user.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'OK' });
    await expect.poll(() => attemptsOf(user.email), { timeout: 10_000 }).toBeGreaterThanOrEqual(2); // retried, with back-off
    await peer.start();
    const mail = await peer.waitForMail({ to: user.email, since });
    expect(resetLink(mail.text).link).toMatch(/^http:\/\/app\.test\/resetnewpassword\?token=/);
  });

  it('SMTP server refusing (451): 200 at once; delivered after it accepts again', async () => {
    const user = await createUser(t);
    peer.setRefusing(true);
    const since = peer.messages.length;
    try {
      expect((await requestReset(user.email)).statusCode).toBe(200);
      // This mail's own attempt refused (a notice of an earlier test may be refused meanwhile too).
      await expect.poll(() => attemptsOf(user.email), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    } finally {
      peer.setRefusing(false);
    }
    await peer.waitForMail({ to: user.email, since });
    const row = () =>
      t.app.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', user.email).executeTakeFirstOrThrow();
    await expect.poll(async () => (await row()).sent_at, { timeout: 10_000 }).not.toBeNull();
    expect((await row()).attempts).toBeGreaterThanOrEqual(2);
  });

  it('mail queued while the server is down survives a restart of the app and is delivered by the new one', async () => {
    const user = await createUser(t);
    await peer.stop();
    const since = peer.messages.length;
    expect((await requestReset(user.email)).statusCode).toBe(200);
    await expect.poll(() => attemptsOf(user.email), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await t.restart();
    await t.app.ready(); // as listen() does in production: the worker starts with the app
    await peer.start();
    await peer.waitForMail({ to: user.email, since });
  });
});
