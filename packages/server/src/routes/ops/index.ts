import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { credentials } from '../../auth/credentials.js';
import { databaseAnswers } from '../../db/readiness.js';
import { httpErrors } from '../../http-errors.js';
import { errorAnswer, unauthorized } from '../../schemas/errors.js';

/** The operators' calls, at the root as probes and scrapers expect them (docs/api.md, "Operating the product"). */
export const opsPaths = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

const status = (value: 'ok' | 'unavailable', description: string) => ({
  description,
  type: 'object',
  properties: { status: { type: 'string', enum: [value] } },
  required: ['status'],
});

/** Probes run every few seconds: their answers are never cached, and a success is not logged. */
const probe = { logLevel: 'warn', compress: false } as const;
const NO_STORE = 'no-store';

/** Both sides hashed to one length, so the comparison takes the same time whatever the token given. */
const digest = (value: string) => createHash('sha256').update(value).digest();

export default async function opsRoutes(app: FastifyInstance) {
  app.get(
    opsPaths.health,
    {
      ...probe,
      schema: {
        tags: ['ops'],
        operationId: 'getHealth',
        summary: 'Liveness: 200 while the process serves',
        security: [],
        response: { 200: status('ok', 'The process serves') },
      },
    },
    async (_request, reply) => reply.header('cache-control', NO_STORE).send({ status: 'ok' }),
  );

  // Logged when it changes, not on every probe.
  let ready = true;
  app.get(
    opsPaths.ready,
    {
      ...probe,
      schema: {
        tags: ['ops'],
        operationId: 'getReadiness',
        summary: 'Readiness: 200 while the database answers (within 2 s), 503 while it does not',
        description:
          'The schema is migrated before the server serves at all, so an answer means the migrations are done. ' +
          'Nothing is remembered between probes: the first probe after the database is back answers 200.',
        security: [],
        response: {
          200: status('ok', 'The database answers'),
          503: status('unavailable', 'The database does not answer'),
        },
      },
    },
    async (_request, reply) => {
      const answers = await databaseAnswers(app.db);
      if (answers !== ready) {
        ready = answers;
        if (answers) app.log.info('readiness: the database answers again');
        else app.log.warn('readiness: the database does not answer');
      }
      reply.header('cache-control', NO_STORE);
      if (answers) return reply.send({ status: 'ok' });
      // Every 503 of this server says when to ask again (docs/api.md, "Errors").
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable' });
    },
  );

  const token = app.config.metricsToken;
  const expected = token === undefined ? undefined : digest(token);
  app.get(
    opsPaths.metrics,
    {
      compress: false,
      schema: {
        tags: ['ops'],
        operationId: 'getMetrics',
        summary: 'Prometheus metrics: requests, logins, rate limits, mail outbox, process',
        description: '404 unless METRICS_TOKEN is set; then 401 without `Authorization: Bearer <METRICS_TOKEN>`.',
        security: [{ metrics: [] }],
        response: {
          200: {
            description: 'Prometheus text format 0.0.4',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
          401: unauthorized,
          404: errorAnswer('METRICS_TOKEN is not set'),
        },
      },
    },
    async (request, reply) => {
      if (!expected) throw httpErrors.notFound();
      if (!timingSafeEqual(digest(credentials(request, 'Bearer')), expected)) throw httpErrors.tokenNotValid('Bearer');
      const { registry } = app.metrics;
      return reply
        .header('cache-control', NO_STORE)
        .type(registry.contentType)
        .send(await registry.metrics());
    },
  );
}
