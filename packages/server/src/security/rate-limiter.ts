import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Config, RateLimit } from '../config.js';
import type { Database } from '../db/schema.js';
import { httpErrors } from '../http-errors.js';
import * as counters from '../repositories/rate-limits.js';
import { rateLimitAddress } from './client-address.js';

export type LimitName = keyof Config['rateLimits'];

/** What one attempt counts against: the client address, and the account when one is named. */
export type Subjects = Partial<Record<'ip' | 'account', string>>;

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
  return {
    /**
     * Counts one attempt per subject; throws 429 (with Retry-After) when any of them is over the limit.
     * `executor` may be a transaction, to commit the count with the work it guards.
     */
    async consume(name: LimitName, subjects: Subjects, executor: Kysely<Database> = db): Promise<Ticket> {
      const { max, windowSeconds } = limits[name];
      if (max === 0 || windowSeconds === 0) return { refund: async () => {} };
      const nowSeconds = Math.floor(now() / 1000);
      const windowStart = nowSeconds - (nowSeconds % windowSeconds);
      const counted: { key: string; windowStart: number }[] = [];
      let over = false;
      let retryAfter = 1;
      for (const [scope, value] of Object.entries(subjects)) {
        if (value === undefined) continue;
        const key = keyOf(name, scope, scope === 'ip' ? rateLimitAddress(value) : value);
        const result = await counters.hit(executor, key, windowStart);
        counted.push({ key, windowStart: result.windowStart });
        if (result.hits > max) {
          over = true;
          retryAfter = Math.max(retryAfter, result.windowStart + windowSeconds - nowSeconds);
        }
      }
      if (over) {
        onRefused?.(name);
        throw httpErrors.throttled(retryAfter);
      }
      return {
        async refund() {
          for (const c of counted) await counters.unhit(db, c.key, c.windowStart);
        },
      };
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
