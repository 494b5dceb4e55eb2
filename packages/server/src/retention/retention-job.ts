import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { deleteExpired, type RetentionCounts } from '../repositories/retention.js';
import { removeOldMailFiles } from './old-mail-files.js';

export interface RetentionOptions {
  /** The first run comes after a random delay in this range [min, max], so instances started together spread out. */
  firstRunMs: readonly [number, number];
  /** Time from the end of one run to the start of the next. */
  everyMs: number;
  /** Most rows one statement deletes (repositories/retention.ts). */
  batchSize: number;
}

export const defaultRetentionOptions: RetentionOptions = {
  firstRunMs: [2000, 10_000],
  everyMs: 3600_000,
  batchSize: 1000,
};

const DAY_MS = 24 * 3600_000;

/** What one run removed: rows per kind, and the `.eml` files of delivered mails. */
export type RetentionResult = RetentionCounts & { mailFiles: number };

/**
 * Deletes, every hour, what is older than `retentionDays` (docs/api.md, "Operating the product"): ended or expired
 * sessions, used or expired reset and e-mail change tokens, used recovery codes, delivered or given-up
 * mails, and the `.eml` files in `mailDir` (mailer.ts, `mailFolder`). Every instance runs it; runs
 * at once are safe (see deleteExpired), so nothing elects a leader. A failed run (the database is
 * away) is logged and the next one comes as planned; the timer never keeps the process alive.
 */
export function createRetentionJob(
  db: Kysely<Database>,
  retentionDays: number,
  mailDir: string,
  log: FastifyBaseLogger,
  options: RetentionOptions,
) {
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<unknown> | undefined;

  /** One run now; `now` moves the clock (tests). */
  async function run(now = new Date()): Promise<RetentionResult> {
    const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
    const rows = await deleteExpired(db, cutoff, { batchSize: options.batchSize, signal: stopping.signal });
    // The rows are gone already: a mail folder that cannot be read (its permissions) is logged on its
    // own, and the run still reports what it deleted.
    const mailFiles = await removeOldMailFiles(mailDir, cutoff, stopping.signal).catch((error: unknown) => {
      log.error({ err: error }, 'retention: the mail folder could not be cleaned; the next run tries again');
      return 0;
    });
    const deleted = { ...rows, mailFiles };
    if (Object.values(deleted).some((count) => count > 0))
      log.info({ ...deleted, cutoff: cutoff.toISOString() }, 'retention: deleted old rows and files');
    return deleted;
  }

  function schedule(delayMs: number) {
    if (stopping.signal.aborted) return;
    timer = setTimeout(tick, delayMs);
    timer.unref();
  }

  async function tick() {
    timer = undefined;
    inFlight = run().catch((error: unknown) =>
      log.error({ err: error }, 'retention: run failed; the next one comes as planned'),
    );
    await inFlight;
    inFlight = undefined;
    schedule(options.everyMs);
  }

  return {
    run,
    /** Plans the first run, after a random delay. */
    start() {
      if (timer || inFlight) return;
      const [min, max] = options.firstRunMs;
      schedule(min + Math.random() * (max - min));
    },
    /** True while a next run is planned. */
    get scheduled(): boolean {
      return timer !== undefined;
    },
    /** No further run; a run in flight stops after its current batch. */
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      timer = undefined;
      await inFlight;
    },
  };
}

export type RetentionJob = ReturnType<typeof createRetentionJob>;
