import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { mailFolder } from '../../mail/mailer.js';
import {
  createRetentionJob,
  defaultRetentionOptions,
  type RetentionJob,
  type RetentionOptions,
} from '../../retention/retention-job.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Deletes old sessions, tokens, recovery codes and mails every hour; `run()` does it now. */
    retention: RetentionJob;
  }
}

/** The retention job: planned once the app is ready, stopped before the database closes. */
export default fp(
  async function retention(app: FastifyInstance, opts: { retention?: Partial<RetentionOptions> }) {
    const log = app.log.child({ component: 'retention' });
    const job = createRetentionJob(app.db, app.config.retentionDays, mailFolder(app.config), log, {
      ...defaultRetentionOptions,
      ...opts.retention,
    });
    app.decorate('retention', job);
    app.addHook('onReady', async () => job.start());
    // onClose hooks run in reverse order of registration, so this one runs before the database closes.
    app.addHook('onClose', async () => job.stop());
  },
  { name: 'retention', dependencies: ['services'] },
);
