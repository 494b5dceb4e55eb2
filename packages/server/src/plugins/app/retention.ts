import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  createRetentionJob,
  defaultRetentionOptions,
  type RetentionJob,
  type RetentionOptions,
} from '../../retention/retention-job.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Deletes old sessions, reset tokens and mails every hour; `run()` does it now. */
    retention: RetentionJob;
  }
}

/** The retention job: planned once the app is ready, stopped before the database closes. */
export default fp(
  async function retention(app: FastifyInstance, opts: { retention?: Partial<RetentionOptions> }) {
    const job = createRetentionJob(app.db, app.config.retentionDays, app.log.child({ component: 'retention' }), {
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
