import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { insertMail, type OutgoingMail } from '../repositories/mail-outbox.js';
import { createBodySeal } from './body-seal.js';
import { createOutboxWorker, defaultOutboxOptions, type OutboxOptions } from './outbox-worker.js';
import { fileTransport, smtpTransport } from './transport.js';

/** Where mail lands as `.eml` files when no mail server is configured (local use). */
export const mailFolder = (config: Pick<Config, 'dataDir'>) => path.join(config.dataDir, 'mail');

/**
 * Every mail goes through the durable outbox table first, then a worker hands it to SMTP (`SMTP_URL`)
 * or, with no mail server configured, writes it as an `.eml` file in `DATA_DIR/mail/`. A request
 * therefore never waits for, nor fails because of, a mail server.
 */
export function createMailer(
  db: Kysely<Database>,
  config: Config,
  log: FastifyBaseLogger,
  options: Partial<OutboxOptions> = {},
) {
  const transport = config.smtpUrl
    ? smtpTransport(config.smtpUrl, config.mailFrom)
    : fileTransport(mailFolder(config), config.mailFrom);
  const seal = createBodySeal(config.secretKey);
  const worker = createOutboxWorker(db, seal, transport, log, { ...defaultOutboxOptions, ...options });

  return {
    /** `smtp`, or `file` when mail only lands in DATA_DIR/mail (local use). */
    kind: transport.kind,
    /**
     * Queues the mail through `executor`: pass the transaction of the change the mail reports, so both
     * commit or neither does, then call `wake()` once it has committed.
     */
    async queue(mail: OutgoingMail, executor: Kysely<Database> = db): Promise<void> {
      await insertMail(executor, { ...mail, sealedText: seal.seal(mail.text) });
    },
    /** Delivery starts now rather than at the worker's next poll. */
    wake: () => worker.wake(),
    /** Queues the mail on its own and wakes the worker. */
    async send(mail: OutgoingMail): Promise<void> {
      await insertMail(db, { ...mail, sealedText: seal.seal(mail.text) });
      worker.wake();
    },
    start: () => worker.start(),
    async stop() {
      await worker.stop();
      transport.close();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
