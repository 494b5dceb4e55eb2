import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface AfterAnswer {
  /** Runs `step` once the current answer has gone out (on the event loop's next turn); a failure is logged. */
  run(step: () => Promise<void>, log: FastifyBaseLogger, failure: string): void;
  /** Resolves once every step begun so far has ended. */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Work a call leaves until its answer is out, so that its time does not show in the answer's. */
    afterAnswer: AfterAnswer;
  }
}

/**
 * A call's work that need not hold up its answer, and must not show in its time: a reset request's
 * token and mail for a known address (auth/password-reset.ts), whose writes would otherwise tell it
 * from an unknown one. A close waits for the steps begun, before the database closes.
 */
export default fp(
  async function afterAnswer(app: FastifyInstance) {
    const unfinished = new Set<Promise<void>>();
    app.decorate('afterAnswer', {
      run(step, log, failure) {
        // A step that begins synchronously (SQLite) would run ahead of the answer's write, a microtask
        // later than the handler's end: setImmediate waits for the event loop's next turn.
        const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
          .then(step)
          .catch((error: unknown) => log.error({ err: error }, failure))
          .finally(() => unfinished.delete(running));
        unfinished.add(running);
      },
      async settled() {
        await Promise.all(unfinished);
      },
    } satisfies AfterAnswer);
    // onClose hooks run in reverse order of registration, so this one runs before the database closes.
    app.addHook('onClose', async () => app.afterAnswer.settled());
  },
  { name: 'after-answer' },
);
