import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createRateLimiter, type RateLimiter } from '../../security/rate-limiter.js';

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimiter;
  }
}

const PRUNE_EVERY_MS = 10 * 60_000;

/** The abuse limits (docs/api.md, "Limits"), and a timer that prunes counters of past windows. */
export default fp(
  async function rateLimit(app: FastifyInstance) {
    const limiter = createRateLimiter(app.db, app.config.rateLimits, {
      onRefused: (name) => app.metrics.rateLimitRefused(name),
    });
    app.decorate('rateLimits', limiter);

    let timer: NodeJS.Timeout | undefined;
    app.addHook('onReady', async () => {
      timer = setInterval(() => {
        limiter.prune().catch((error: unknown) => app.log.warn({ err: error }, 'rate limits: pruning failed'));
      }, PRUNE_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'rate-limit', dependencies: ['services', 'metrics'] },
);
