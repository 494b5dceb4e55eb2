import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';
import { outboxGauges } from '../../metrics/outbox.js';
import { requestMetrics } from '../../metrics/requests.js';
import type { LimitName } from '../../security/rate-limiter.js';

export type LoginOutcome = 'success' | 'failure' | 'throttled';

export interface Metrics {
  /** This app's metrics, in Prometheus' text format by `registry.metrics()` (GET /metrics). */
  registry: Registry;
  /** A login (`POST /api/v1/token/`, `api-token-auth`) decided. */
  login(outcome: LoginOutcome): void;
  /** An attempt refused with 429 by one of the abuse limits. */
  rateLimitRefused(limit: LimitName): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/**
 * Prometheus metrics (docs/api.md, "Operating the product"), in a registry of this app's own (tests
 * build several apps in one process): every answer by method, route pattern and status, with its duration
 * (metrics/requests.ts); logins by outcome; abuse-limit refusals; the mail outbox, read when scraped
 * (metrics/outbox.ts); prom-client's process figures (CPU, memory, event-loop lag, GC).
 */
export default fp(
  async function metrics(app: FastifyInstance) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = requestMetrics(registry);
    // One synchronous hook on every answer, timed by Fastify's own clock (reply.elapsedTime); the route
    // is its declared pattern (routeOptions.url), undefined for an answer no route gave.
    app.addHook('onResponse', function countAnswer(request, reply, done) {
      requests.record(request.routeOptions.url, request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    const registers = [registry];
    const logins = new Counter({
      name: 'logins_total',
      help: 'Logins by outcome: success, failure (wrong credentials), throttled (429)',
      labelNames: ['outcome'],
      registers,
    });
    const refusals = new Counter({
      name: 'rate_limit_refusals_total',
      help: 'Attempts refused by an abuse limit (429), by limit',
      labelNames: ['limit'],
      registers,
    });
    // Every series there from the start, at 0, so that the first event shows as an increase.
    for (const outcome of ['success', 'failure', 'throttled'] satisfies LoginOutcome[]) logins.inc({ outcome }, 0);
    for (const limit of Object.keys(app.config.rateLimits)) refusals.inc({ limit }, 0);

    outboxGauges(registry, app.db, app.log);

    app.decorate('metrics', {
      registry,
      login: (outcome: LoginOutcome) => logins.inc({ outcome }),
      rateLimitRefused: (limit: LimitName) => refusals.inc({ limit }),
    } satisfies Metrics);
  },
  { name: 'metrics', dependencies: ['services'] },
);
