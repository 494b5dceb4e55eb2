import { startSmtpPeer, type SmtpPeer } from '@hello/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';

/** The durable outbox itself: several instances on one database, and giving up. */
describe.each(dialects)('mail outbox (%s)', (dialect) => {
  let t: TestApp;
  let peer: SmtpPeer;
  beforeAll(async () => {
    peer = await startSmtpPeer();
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

  const pending = async () =>
    (
      await t.app.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('failed_at', 'is', null)
        .execute()
    ).length;

  it('two server instances on one database deliver each queued mail exactly once', async () => {
    const second = await buildApp(t.config, { outbox: { baseDelayMs: 50, maxDelayMs: 100, pollMs: 50 } });
    try {
      await Promise.all([t.app.ready(), second.ready()]);
      const since = peer.messages.length;
      const recipients = Array.from({ length: 12 }, (_, i) => `outbox-${i}-${dialect}@example.com`);
      for (const [i, to] of recipients.entries())
        await (i % 2 ? second : t.app).mailer.send({ to, subject: `Mail ${i}`, text: 'Hello.' });
      await expect.poll(pending, { timeout: 10_000 }).toBe(0);
      const delivered = peer.messages.slice(since).flatMap((m) => m.to);
      expect(delivered.sort()).toEqual(recipients.map((r) => r.toLowerCase()).sort());
    } finally {
      await second.close();
    }
  });

  it('gives a mail up once it is older than giveUpAfterMs, with the error kept and the body scrubbed', async () => {
    const impatient = await buildApp(t.config, {
      outbox: { baseDelayMs: 50, maxDelayMs: 100, pollMs: 50, giveUpAfterMs: 300 },
    });
    await t.app.close(); // only the impatient instance works the queue now
    await peer.stop();
    try {
      await impatient.ready();
      await impatient.mailer.send({
        to: 'gone@example.com',
        subject: 'Lost',
        text: 'Link: http://app.test/resetnewpassword?token=SECRET123',
      });
      const row = () =>
        impatient.db
          .selectFrom('mail_outbox')
          .selectAll()
          .where('recipient', '=', 'gone@example.com')
          .executeTakeFirstOrThrow();
      await expect.poll(async () => (await row()).failed_at, { timeout: 10_000 }).not.toBeNull();
      const given = await row();
      expect(given.sent_at).toBeNull();
      expect(given.last_error).toBeTruthy();
      expect(given.body_text).not.toContain('SECRET123');
      const attempts = given.attempts;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await row()).attempts).toBe(attempts); // not retried any more
    } finally {
      await impatient.close();
      await peer.start();
      await t.restart();
    }
  });
});
