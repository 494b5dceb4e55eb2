import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config, RateLimit } from '../config.js';
import type { Database } from '../db/schema.js';
import { httpErrors } from '../http-errors.js';
import * as counters from '../repositories/rate-limits.js';
import { rateLimitAddress } from './client-address.js';

export type LimitName = keyof Config['rateLimits'];

/**
 * What one attempt counts against: the client address, and the account when one is named (by its
 * e-mail, as anyone may name it) or the signed-in user (by id: a bucket that strangers' attempts on
 * the account do not fill).
 */
export type Subjects = Partial<Record<'ip' | 'account' | 'user', string>>;

/** An attempt that was counted; `refund()` takes it back (the login succeeded). */
export interface Ticket {
  refund(): Promise<void>;
}

/**
 * Keys hold a hash, not the address or e-mail itself: the table needs to tell subjects apart, not to
 * know who they are.
 */
const keyOf = (name: string, scope: string, value: string) =>
  `${name}:${scope}:${createHash('sha256').update(value).digest('base64url')}`;

/**
 * Fixed-window limits (docs/api.md, "Limits"), counted in the database so every server instance of a
 * deployment shares them. An attempt is counted before it is tried, so a burst of parallel guesses
 * cannot slip past the limit while the first ones are still being checked.
 */
export function createRateLimiter(
  db: Kysely<Database>,
  limits: Record<LimitName, RateLimit>,
  {
    now = Date.now,
    onRefused,
  }: {
    now?: () => number;
    /** Told of each attempt refused with 429 (the metrics count them). */
    onRefused?: (name: LimitName) => void;
  } = {},
) {
  /** One hit per subject in the current window; each subject's count after it. */
  async function hitAll(name: LimitName, subjects: Subjects, executor: Kysely<Database>) {
    const { windowSeconds } = limits[name];
    const nowSeconds = Math.floor(now() / 1000);
    const hits: { key: string; windowStart: number; hits: number }[] = [];
    for (const [scope, value] of Object.entries(subjects)) {
      if (value === undefined) continue;
      const key = keyOf(name, scope, scope === 'ip' ? rateLimitAddress(value) : value);
      hits.push({ key, ...(await counters.hit(executor, key, nowSeconds - (nowSeconds % windowSeconds))) });
    }
    return { hits, nowSeconds };
  }

  const ticketFor = (hits: { key: string; windowStart: number }[]): Ticket => ({
    async refund() {
      for (const c of hits) await counters.unhit(db, c.key, c.windowStart);
    },
  });

  const off = (name: LimitName) => limits[name].max === 0 || limits[name].windowSeconds === 0;

  return {
    /**
     * Counts one attempt per subject; throws 429 (with Retry-After) when any of them is over the limit.
     * `executor` may be a transaction, to commit the count with the work it guards.
     */
    async consume(name: LimitName, subjects: Subjects, executor: Kysely<Database> = db): Promise<Ticket> {
      if (off(name)) return ticketFor([]);
      const { max, windowSeconds } = limits[name];
      const { hits, nowSeconds } = await hitAll(name, subjects, executor);
      const over = hits.filter((hit) => hit.hits > max);
      if (over.length > 0) {
        onRefused?.(name);
        throw httpErrors.throttled(Math.max(1, ...over.map((hit) => hit.windowStart + windowSeconds - nowSeconds)));
      }
      return ticketFor(hits);
    },
    /**
     * Counts one attempt per subject without refusing any: it weighs on those subjects' next
     * `consume`, and `refund()` takes it back.
     */
    async count(name: LimitName, subjects: Subjects): Promise<Ticket> {
      return off(name) ? ticketFor([]) : ticketFor((await hitAll(name, subjects, db)).hits);
    },
    /**
     * True for the first call per `scope`/`value` in a window of `windowSeconds`, false after: keeps a
     * notice (the "someone tried to register with your address" mail) from being sent in a flood.
     */
    async firstInWindow(scope: string, value: string, windowSeconds: number): Promise<boolean> {
      const nowSeconds = Math.floor(now() / 1000);
      const { hits } = await counters.hit(db, keyOf(scope, 'once', value), nowSeconds - (nowSeconds % windowSeconds));
      return hits === 1;
    },
    /** Deletes counters of windows that are over for every limit. */
    async prune(): Promise<number> {
      const longest = Math.max(...Object.values(limits).map((l) => l.windowSeconds), 1);
      return counters.pruneBefore(db, Math.floor(now() / 1000) - longest);
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
