import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { post } from '../helpers/accounts.js';
import { resetLink } from '../helpers/mail.js';
import { createUser } from '../helpers/users.js';

/**
 * Reset tokens only as hashes, even in a mail the mail server has not taken yet
 * (docs/api.md, "What is never lost").
 */
describe.each(dialects)('a pending reset mail holds no usable token (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    peer.setRefusing(true);
    t = await buildTestApp(
      dialect,
      { SMTP_URL: peer.url },
      { outbox: { baseDelayMs: 50, maxDelayMs: 100, pollMs: 50 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  it('keeps the body sealed while the mail waits, and delivers the working link later', async () => {
    const user = await createUser(t);
    const res = await post(t.app, '/api/password_reset/', {
      email: user.email,
      reset_new_password_path: '/resetnewpassword',
    });
    expect(res.statusCode).toBe(200);

    await t.app.afterAnswer.settled(); // the token and the mail are stored once the answer is out
    const row = await t.app.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', user.email)
      .executeTakeFirstOrThrow();
    expect(row.sent_at).toBeNull();
    expect(row.body_text.startsWith('v1.')).toBe(true);
    expect(row.body_text).not.toContain('resetnewpassword');

    peer.setRefusing(false);
    const mail = await peer.waitForMail({ to: user.email, timeoutMs: 15_000 });
    const { token } = resetLink(mail.text ?? '');
    expect(row.body_text).not.toContain(token);
    const valid = await post(t.app, '/api/password_reset/validate_token/', { token });
    expect(valid.statusCode).toBe(200);
  });
});
