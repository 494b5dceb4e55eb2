import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/schema.js';
import { PROBE_TIMEOUT_MS, within } from '../db/readiness.js';
import { outboxFigures, type OutboxFigures } from '../repositories/mail-outbox.js';

/**
 * `mail_outbox_pending`, `mail_outbox_failed` and `mail_outbox_oldest_pending_age_seconds`, read when
 * scraped, by one statement: the Registry asks the three at once, and they share the statement in
 * flight. A database that does not answer within 2 s leaves them NaN for that scrape, rather than
 * failing the scrape or holding it. They are the whole deployment's (every instance reads the shared
 * table), so across instances they are taken once, not summed (docs/api.md, "Operating the product").
 */
export function outboxGauges(registry: Registry, db: Kysely<Database>, log: FastifyBaseLogger): void {
  let inFlight: Promise<OutboxFigures | undefined> | undefined;
  const read = () =>
    (inFlight ??= within(outboxFigures(db), PROBE_TIMEOUT_MS)
      .catch((error: unknown) => {
        log.warn({ err: error }, 'metrics: the mail outbox could not be read');
        return undefined;
      })
      .finally(() => (inFlight = undefined)));

  const gauge = (name: string, help: string, value: (figures: OutboxFigures) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const figures = await read();
        this.set(figures ? value(figures) : NaN);
      },
    });
  gauge(
    'mail_outbox_pending',
    'Mails waiting for delivery, in the whole deployment (the same on every instance)',
    (f) => f.pending,
  );
  gauge(
    'mail_outbox_failed',
    'Mails given up on (undelivered after 24 hours) in the whole deployment, until retention deletes them',
    (f) => f.failed,
  );
  gauge(
    'mail_outbox_oldest_pending_age_seconds',
    'Age of the oldest mail waiting for delivery, in seconds (0 when none waits)',
    (f) => (f.oldestPendingAt ? Math.max(0, (Date.now() - f.oldestPendingAt.getTime()) / 1000) : 0),
  );
}
