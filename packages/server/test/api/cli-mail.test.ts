import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../helpers/accounts.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { resetLink } from '../helpers/mail.js';
import { createUser } from '../helpers/users.js';

/**
 * `hello-admin mail` with SMTP_URL set: the links are the recipients' alone (docs/api.md), so a mail
 * still waiting in the outbox is printed with its tokens redacted. Without SMTP_URL it prints the
 * `.eml` files as written, links and all (test/api/cli.test.ts): the local try-out's way to them.
 */
describe.each(dialects)('hello-admin mail with SMTP_URL (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
    peer.setRefusing(true); // the mails stay pending, their live links in the outbox
    t = await buildTestApp(
      dialect,
      { SMTP_URL: peer.url, RATE_LIMIT_RESET: '0' },
      { outbox: { baseDelayMs: 50, maxDelayMs: 100, pollMs: 50 } },
    );
  });
  afterAll(async () => {
    await t.close();
    await peer.stop();
  });

  it('prints pending reset and e-mail change mails with their tokens redacted', async () => {
    const user = await createUser(t);
    const res = await post(t.app, '/api/password_reset/', {
      email: user.email,
      reset_new_password_path: '/resetnewpassword',
    });
    expect(res.statusCode).toBe(200);
    await t.app.afterAnswer.settled();
    await t.app.mailer.send({
      to: user.email,
      subject: 'Confirm your new e-mail address',
      text: 'Open http://app.test/confirmemail?token=EMAIL-CHANGE-TOKEN within an hour.',
    });

    const printed = await cli(t, ['mail', '--last', '2'], { env: { SMTP_URL: peer.url } });
    expect(printed.code).toBe(0);
    expect(printed.out).toContain('pending (');
    expect(printed.out).toContain('http://app.test/resetnewpassword?token=[redacted]');
    expect(printed.out).toContain('Open http://app.test/confirmemail?token=[redacted] within an hour.');
    expect(printed.out).not.toContain('EMAIL-CHANGE-TOKEN');

    // The token the reset mail carries, once delivered, was not in what the command printed.
    peer.setRefusing(false);
    const mail = await peer.waitForMail({ to: user.email, subject: 'Reset your password', timeoutMs: 15_000 });
    const { token } = resetLink(mail.text ?? '');
    expect(printed.out).not.toContain(token);
  });
});
