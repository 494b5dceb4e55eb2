import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createBodySeal } from '../../src/mail/body-seal.js';
import { createOutboxWorker, defaultOutboxOptions, type OutboxOptions } from '../../src/mail/outbox-worker.js';
import { smtpTransport, type MailTransport } from '../../src/mail/transport.js';
import * as outbox from '../../src/repositories/mail-outbox.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { recordingLog } from '../helpers/recording-log.js';
import { startHangingSmtpPeer, type HangingSmtpPeer } from '../helpers/hanging-smtp.js';
import { uniqueEmail } from '../helpers/users.js';

/**
 * stop() (app.close(), at SIGTERM) waits for the delivery in flight and the last records for a bounded
 * time only: a mail server that hangs must not hold the shutdown past its grace (src/main.ts). The mail
 * abandoned keeps its claim and stays pending, to be sent once the lease ends; whatever the abandoned
 * delivery does later touches no database and logs no error. SIGTERM of a real process:
 * test/reliability/shutdown-hanging-smtp.test.ts.
 */
describe.each(dialects)('outbox: stop() with a delivery or a record that hangs (%s)', (dialect) => {
  let t: TestApp;
  let peer: HangingSmtpPeer | undefined;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await t.app.ready();
    await t.app.mailer.stop(); // only the worker of each test works the queue
  });
  afterAll(() => t.close());
  afterEach(async () => {
    vi.restoreAllMocks();
    await peer?.close();
    peer = undefined;
  });

  const SECRET = 'LIVE-RESET-TOKEN-456';
  const STOP_WAIT_MS = 300;
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** A worker on the test's database, its log lines, and one mail queued for it. */
  async function setUp(transport: MailTransport, options: Partial<OutboxOptions> = {}) {
    const seal = createBodySeal(t.config.secretKey);
    const { log, lines } = recordingLog();
    const text = `Open http://app.test/resetnewpassword?token=${SECRET} within an hour.`;
    const id = await outbox.insertMail(t.app.db, {
      to: uniqueEmail('stop'),
      subject: 'Reset your password',
      text,
      sealedText: seal.seal(text),
    });
    const worker = createOutboxWorker(t.app.db, seal, transport, log, {
      ...defaultOutboxOptions,
      pollMs: 60_000,
      stopWaitMs: STOP_WAIT_MS,
      ...options,
    });
    const row = () => t.app.db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { worker, lines, row, id };
  }

  /** stop(), timed; `undefined` when it has not returned after `limitMs`. */
  async function timedStop(worker: { stop(): Promise<void> }, limitMs = 5000): Promise<number | undefined> {
    const started = Date.now();
    const stopped = await Promise.race([worker.stop().then(() => true), pause(limitMs).then(() => false)]);
    return stopped ? Date.now() - started : undefined;
  }

  it('gives up on a delivery the mail server never answers; the mail stays pending under its claim', async () => {
    peer = await startHangingSmtpPeer();
    const smtp = smtpTransport(peer.url, 'no-reply@app.test');
    let settled = false;
    const transport: MailTransport = {
      kind: 'smtp',
      deliver: (mail) => smtp.deliver(mail).finally(() => (settled = true)),
      close: () => smtp.close(),
    };
    const { worker, lines, row, id } = await setUp(transport);
    worker.start();
    await expect.poll(() => peer!.hanging, { timeout: 10_000 }).toBe(1);

    const tookMs = await timedStop(worker);
    transport.close();
    expect(tookMs, 'stop() waited for the hanging delivery').toBeDefined();
    expect(tookMs).toBeGreaterThanOrEqual(STOP_WAIT_MS - 20);
    expect(tookMs).toBeLessThan(STOP_WAIT_MS + 1500);
    expect(settled).toBe(false); // still hanging: abandoned, not finished
    const pending = await row();
    expect(pending).toMatchObject({ sent_at: null, failed_at: null, attempts: 0, last_error: null });
    // The claim's lease stands: the mail is sent once it ends, by this instance or another.
    expect(Date.parse(pending.next_attempt_at)).toBeGreaterThan(Date.now() + defaultOutboxOptions.leaseMs - 30_000);
    expect(lines).toContainEqual({
      level: 'warn',
      args: [expect.objectContaining({ mailId: id }), expect.stringContaining('abandoned at shutdown')],
    });

    // The database is closed from now on, as it is at shutdown; the delivery ends (the server hangs up).
    const closed = () => Promise.reject(new Error('driver has already been destroyed'));
    const writes = ['markRetry', 'markSent', 'markGivenUp', 'claimMail', 'dueMails', 'nextAttemptAt'] as const;
    const spies = writes.map((name) => vi.spyOn(outbox, name).mockImplementation(closed));
    const before = lines.length;
    await peer.close();
    await expect.poll(() => settled, { timeout: 10_000 }).toBe(true);
    await pause(100);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(lines.slice(before).filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(JSON.stringify(lines)).not.toMatch(/"err"|stack/);
    vi.restoreAllMocks();
    expect(await row()).toEqual(pending);
  });

  it('records, once started again, a delivery that ended after stop() gave up on it, without sending it again', async () => {
    let deliveries = 0;
    let finish: () => void = () => {};
    const transport: MailTransport = {
      kind: 'smtp',
      deliver: () => {
        deliveries += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
      close: () => {},
    };
    const { worker, lines, row } = await setUp(transport);
    worker.start();
    await expect.poll(() => deliveries, { timeout: 5000 }).toBe(1);
    expect(await timedStop(worker)).toBeDefined();
    finish(); // the mail server accepts it after all
    await expect
      .poll(() => lines.some((l) => l.level === 'warn' && String(l.args[1]).includes('delivered after shutdown')))
      .toBe(true);
    expect((await row()).sent_at).toBeNull();

    worker.start();
    await expect.poll(async () => (await row()).sent_at, { timeout: 5000 }).not.toBeNull();
    await worker.stop();
    expect(deliveries).toBe(1);
    expect(await row()).toMatchObject({ attempts: 1, failed_at: null });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.args)).toEqual([]);
  });

  it('gives up on the last records of mails sent when the database does not answer them', async () => {
    const transport: MailTransport = { kind: 'smtp', deliver: async () => {}, close: () => {} };
    const markSent = vi
      .spyOn(outbox, 'markSent')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'))
      .mockImplementation(() => new Promise<void>(() => {})); // then a database that never answers
    const { worker, lines, row, id } = await setUp(transport);
    worker.start();
    await expect.poll(() => markSent.mock.calls.length, { timeout: 5000 }).toBe(1);

    const tookMs = await timedStop(worker);
    expect(tookMs, 'stop() waited for the record that never ends').toBeDefined();
    expect(tookMs).toBeLessThan(STOP_WAIT_MS + 1500);
    expect(markSent).toHaveBeenCalledTimes(2); // the last try, given up on
    expect(lines).toContainEqual({
      level: 'warn',
      args: [expect.objectContaining({ mailIds: [id] }), expect.stringContaining('not recorded as sent at shutdown')],
    });
    expect((await row()).sent_at).toBeNull();
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });
});
