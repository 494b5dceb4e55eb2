import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBodySeal } from '../../src/mail/body-seal.js';
import { createOutboxWorker, defaultOutboxOptions, type OutboxOptions } from '../../src/mail/outbox-worker.js';
import type { MailTransport } from '../../src/mail/transport.js';
import * as outbox from '../../src/repositories/mail-outbox.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { recordingLog } from '../helpers/recording-log.js';

/**
 * A mail delivered whose record as sent fails (the database refuses markSent) is not a failed
 * delivery: no retry is scheduled, the claim stays, and it is never handed to the mail server again.
 * One piece, so the failure is injected into markSent alone.
 */
describe.each(dialects)('outbox: a delivery the database did not record (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.ready();
    await t.app.mailer.stop(); // only the worker of each test works the queue
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const SECRET = 'LIVE-RESET-TOKEN-123';

  /** A worker on the test's database with a transport that counts deliveries, and its log lines. */
  async function setUp(options: Partial<OutboxOptions>) {
    const seal = createBodySeal(t.config.secretKey);
    const delivered: string[] = [];
    const transport: MailTransport = {
      kind: 'smtp',
      deliver: async (mail) => void delivered.push(mail.recipient),
      close: () => {},
    };
    const { log, lines } = recordingLog();
    const to = `unrecorded-${options.leaseMs ?? 'lease'}-${dialect}@example.com`;
    const text = `Open http://app.test/resetnewpassword?token=${SECRET} within an hour.`;
    const id = await outbox.insertMail(t.app.db, {
      to,
      subject: 'Reset your password',
      text,
      sealedText: seal.seal(text),
    });
    const worker = createOutboxWorker(t.app.db, seal, transport, log, {
      ...defaultOutboxOptions,
      baseDelayMs: 20,
      maxDelayMs: 40,
      pollMs: 20,
      ...options,
    });
    const row = () => t.app.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { worker, delivered, lines, row, id, seal };
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('is not delivered again, keeps its claim, and is recorded once the database takes it', async () => {
    const markSent = vi.spyOn(outbox, 'markSent').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    const { worker, delivered, lines, row, id, seal } = await setUp({});
    worker.start();
    try {
      await expect.poll(() => delivered.length, { timeout: 5000 }).toBe(1);
      await expect.poll(() => markSent.mock.calls.length, { timeout: 5000 }).toBeGreaterThan(3); // retried
      expect(delivered).toHaveLength(1);
      const waiting = await row();
      expect(waiting).toMatchObject({ sent_at: null, failed_at: null, attempts: 0, last_error: null });
      expect(Date.parse(waiting.next_attempt_at)).toBeGreaterThan(Date.now() + 60_000); // the lease holds
      const failures = lines.filter((l) => l.level === 'error');
      expect(failures).toHaveLength(1); // once, not at every retry of the record
      expect(failures[0]!.args).toEqual([
        expect.objectContaining({ mailId: id, attempts: 1, reason: 'Connection terminated unexpectedly' }),
        expect.stringContaining('not recorded as sent'),
      ]);
      expect(JSON.stringify(lines)).not.toContain(SECRET);

      markSent.mockRestore(); // the database is back
      await expect.poll(async () => (await row()).sent_at, { timeout: 5000 }).not.toBeNull();
      const sent = await row();
      expect(sent.attempts).toBe(1);
      expect(seal.open(sent.body_text)).toContain('token=[redacted]');
      expect(delivered).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });

  it('is recorded by a last try when the worker stops', async () => {
    const markSent = vi.spyOn(outbox, 'markSent').mockRejectedValue(new Error('Connection terminated unexpectedly'));
    const { worker, delivered, row } = await setUp({ pollMs: 60_000 });
    worker.start();
    await expect.poll(() => markSent.mock.calls.length, { timeout: 5000 }).toBe(1);
    markSent.mockRestore(); // the database is back, and the worker asleep until its next pass
    await worker.stop();
    expect((await row()).sent_at).not.toBeNull();
    expect(delivered).toHaveLength(1);
  });

  it('is recorded, not delivered again, when this worker claims it anew after its lease', async () => {
    const markSent = vi.spyOn(outbox, 'markSent').mockRejectedValue(new Error('database is locked'));
    const claimMail = vi.spyOn(outbox, 'claimMail');
    const { worker, delivered, row } = await setUp({ leaseMs: 60 });
    worker.start();
    try {
      await expect.poll(() => delivered.length, { timeout: 5000 }).toBe(1);
      await expect.poll(() => claimMail.mock.calls.length, { timeout: 5000 }).toBeGreaterThan(3); // leases ran out
      await pause(100);
      expect(delivered).toHaveLength(1);
      markSent.mockRestore();
      await expect.poll(async () => (await row()).sent_at, { timeout: 5000 }).not.toBeNull();
      expect(delivered).toHaveLength(1);
    } finally {
      await worker.stop();
    }
  });
});
