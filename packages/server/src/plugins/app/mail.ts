import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailer, type Mailer } from '../../mail/mailer.js';
import type { OutboxOptions } from '../../mail/outbox-worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

/** The mailer, and its outbox worker: running while the app is, stopped before the database closes. */
export default fp(
  async function mail(app: FastifyInstance, opts: { outbox?: Partial<OutboxOptions> }) {
    const mailer = createMailer(app.db, app.config, app.log.child({ component: 'mail' }), opts.outbox);
    app.decorate('mailer', mailer);
    app.addHook('onReady', async () => mailer.start());
    // onClose hooks run in reverse order of registration, so this one runs before the database closes.
    app.addHook('onClose', async () => mailer.stop());
  },
  { name: 'mail', dependencies: ['services'] },
);
