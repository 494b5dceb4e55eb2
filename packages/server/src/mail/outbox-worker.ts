import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, MailOutboxRow } from '../db/schema.js';
import { redactUrl } from '../logger.js';
import * as outbox from '../repositories/mail-outbox.js';
import type { BodySeal } from './body-seal.js';
import type { MailTransport } from './transport.js';

export interface OutboxOptions {
  /** First retry delay; each later one doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest sleep between looks at the table (other instances may have queued mail). */
  pollMs: number;
  /** How long a claimed mail is left alone before another worker may retry it. */
  leaseMs: number;
  /** A mail still undelivered this long after it was written is given up (its links have expired). */
  giveUpAfterMs: number;
  batchSize: number;
  /**
   * How long stop() waits for the delivery in flight and the last records of mails sent. A mail server
   * that hangs would otherwise hold a SIGTERM for its timeouts (up to 50 s, transport.ts), past the
   * 10 s the process has to exit (main.ts); the mail abandoned keeps its claim and is sent once that ends.
   */
  stopWaitMs: number;
}

export const defaultOutboxOptions: OutboxOptions = {
  baseDelayMs: 1000,
  maxDelayMs: 5 * 60_000,
  pollMs: 5000,
  leaseMs: 2 * 60_000,
  giveUpAfterMs: 24 * 3600_000,
  batchSize: 20,
  stopWaitMs: 3000,
};

/** Delay before attempt `attempts + 1`: 1 s, 2 s, 4 s, … capped. */
export const retryDelayMs = (attempts: number, o: Pick<OutboxOptions, 'baseDelayMs' | 'maxDelayMs'>): number =>
  Math.min(o.baseDelayMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30), o.maxDelayMs);

/** Secrets out of a delivered mail's stored copy: the token of a reset link. */
const scrub = (body: string) => redactUrl(body);

/** The loop of one start(). Once stop() has stopped waiting for it, it asks the database nothing more. */
interface Run {
  running: boolean;
  abandoned: boolean;
  /** The mail being handed to the transport, if any. */
  delivering?: number;
  loop?: Promise<void>;
}

/**
 * Delivers the mail outbox: everything due, then sleeps until the next retry is due, a poll interval
 * passes, or `wake()` says new mail was committed. Failures are retried with exponential back-off; a
 * mail server that is down or refusing only delays mail, it never fails the call that queued it.
 */
export function createOutboxWorker(
  db: Kysely<Database>,
  seal: BodySeal,
  transport: MailTransport,
  log: FastifyBaseLogger,
  options: OutboxOptions,
) {
  let current: Run | undefined;
  let woken = false;
  let interrupt: (() => void) | undefined;

  const sleep = (run: Run, ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || !run.running) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        interrupt = undefined;
        resolve();
      }
      interrupt = done;
    });

  /**
   * Mails delivered whose record as sent the database refused (id → what markSent was to write). Such
   * a row keeps its claim: no retry is scheduled, so nothing is due before its lease ends, and each
   * pass of this worker tries the record again. Should the lease end first (the database away longer),
   * this worker re-claims the row and records it instead of delivering it again; only another
   * instance, or this one restarted, would deliver it a second time, once the lease has ended.
   */
  const unrecorded = new Map<number, { attempts: number; body: string }>();

  async function recordSent(id: number, attempts: number, body: string): Promise<void> {
    const late = unrecorded.has(id);
    try {
      await outbox.markSent(db, id, attempts, body);
    } catch (error) {
      // The error's message and code only: never the mail nor the statement's values.
      const { message, code } = error as { message?: unknown; code?: unknown };
      if (!late)
        log.error(
          { mailId: id, attempts, reason: String(message ?? error), code },
          'mail delivered but not recorded as sent; it is not sent again, and recording it is retried',
        );
      unrecorded.set(id, { attempts, body });
      return;
    }
    unrecorded.delete(id);
    log.info({ mailId: id, attempts, via: transport.kind, late: late || undefined }, 'mail delivered');
  }

  async function attempt(run: Run, row: MailOutboxRow): Promise<void> {
    const attempts = row.attempts + 1;
    let text = '';
    run.delivering = row.id;
    try {
      text = seal.open(row.body_text);
      await transport.deliver({ ...row, body_text: text });
    } catch (error) {
      // Abandoned at shutdown: the database may be closed by now, and the claim's lease brings the mail back.
      if (run.abandoned) return;
      const reason = error instanceof Error ? error.message : String(error);
      if (Date.now() - Date.parse(row.created_at) >= options.giveUpAfterMs) {
        await outbox.markGivenUp(db, row.id, attempts, seal.seal(scrub(text)), reason);
        log.error({ mailId: row.id, attempts, reason }, 'mail delivery given up');
        return;
      }
      const delay = retryDelayMs(attempts, options);
      await outbox.markRetry(db, row.id, attempts, new Date(Date.now() + delay), reason);
      log.warn({ mailId: row.id, attempts, retryInMs: delay, reason }, 'mail delivery failed; will retry');
      return;
    } finally {
      run.delivering = undefined;
    }
    if (run.abandoned) {
      // The database may be closed: kept as unrecorded, so that this worker, started again in this
      // process, records it instead of sending it again. Another instance would send it again.
      unrecorded.set(row.id, { attempts, body: seal.seal(scrub(text)) });
      log.warn(
        { mailId: row.id },
        'mail delivered after shutdown gave up on it; not recorded yet, so another instance may send it again once its claim ends',
      );
      return;
    }
    // Apart from the delivery: a failure here is no failed delivery, and must not send the mail again.
    await recordSent(row.id, attempts, seal.seal(scrub(text)));
  }

  /** Delivers what is due; answers how long to sleep. */
  async function runOnce(run: Run): Promise<number> {
    woken = false;
    for (const [id, mark] of unrecorded) await recordSent(id, mark.attempts, mark.body);
    const now = new Date();
    const due = await outbox.dueMails(db, now, options.batchSize);
    for (const row of due) {
      if (!run.running) return 0;
      if (!(await outbox.claimMail(db, row, new Date(Date.now() + options.leaseMs)))) continue;
      const mark = unrecorded.get(row.id);
      if (mark) await recordSent(row.id, mark.attempts, mark.body);
      else await attempt(run, row);
    }
    if (!run.running || due.length === options.batchSize) return 0;
    const next = await outbox.nextAttemptAt(db);
    return next ? Math.min(Math.max(next.getTime() - Date.now(), 0), options.pollMs) : options.pollMs;
  }

  async function loop(run: Run): Promise<void> {
    while (run.running) {
      let delay: number;
      try {
        delay = await runOnce(run);
      } catch (error) {
        // Abandoned at shutdown, a query failing on the closed database is no news.
        if (run.abandoned) return;
        // The database is away (restarting, unreachable): try again later, never crash.
        log.error({ err: error }, 'mail outbox: cannot read the queue');
        delay = options.pollMs;
      }
      if (delay > 0) await sleep(run, delay);
    }
  }

  /** The last records of mails delivered, then the loop's end; false when `ms` passed first. */
  async function finish(run: Run | undefined, ms: number): Promise<boolean> {
    let late = false;
    const done = (async () => {
      await run?.loop;
      // A last try at the records the database refused: once this process is gone, nothing recalls
      // that those mails went out.
      for (const [id, mark] of unrecorded) {
        if (late) return;
        await recordSent(id, mark.attempts, mark.body);
      }
    })().then(
      () => true,
      () => true,
    );
    let timer: NodeJS.Timeout | undefined;
    const timeUp = new Promise<boolean>(
      (resolve) =>
        (timer = setTimeout(() => {
          late = true;
          if (run) run.abandoned = true;
          resolve(false);
        }, ms)),
    );
    try {
      return await Promise.race([done, timeUp]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    start() {
      if (current) return;
      const run: Run = { running: true, abandoned: false };
      current = run;
      run.loop = loop(run);
    },
    /** New mail was committed: look now instead of at the next poll. */
    wake() {
      woken = true;
      interrupt?.();
    },
    /**
     * Stops after the delivery in flight, if any, waiting for it and the last records for at most
     * `stopWaitMs`. A delivery still running then is abandoned: its mail keeps its claim, and this or
     * another instance sends it once the lease ends (at least once, never lost).
     */
    async stop() {
      const run = current;
      current = undefined;
      if (run) run.running = false;
      interrupt?.();
      if (await finish(run, options.stopWaitMs)) return;
      if (run?.delivering !== undefined)
        log.warn(
          { mailId: run.delivering, waitedMs: options.stopWaitMs },
          'mail delivery abandoned at shutdown; the mail is sent once its claim ends',
        );
      else if (unrecorded.size > 0)
        log.warn(
          { mailIds: [...unrecorded.keys()], waitedMs: options.stopWaitMs },
          'mails delivered but not recorded as sent at shutdown; they are sent again once their claims end',
        );
      else log.warn({ waitedMs: options.stopWaitMs }, 'mail outbox stopped without waiting for the database');
    },
  };
}

export type OutboxWorker = ReturnType<typeof createOutboxWorker>;
