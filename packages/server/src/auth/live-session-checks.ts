import DataLoader from 'dataloader';
import type { LiveSession } from '../repositories/sessions.js';

/**
 * Whether a token's session is still live, asked of the database for every authenticated request, so
 * that a session ended through any instance stops working at once. The requests that arrive in one
 * turn of the event loop are asked about together: one call of `findLive` (one statement), run after
 * all of them arrived (setImmediate). Each answer is as fresh as a statement of its own would be, and
 * under load one statement serves many requests: a statement costs several times a row (locks and
 * system calls on SQLite, a round trip on PostgreSQL). Nothing is kept from one turn to the next
 * (`cache: false`); a failed call fails every request that waited for it.
 *
 * @param findLive the live sessions among the ids (distinct, at most `maxIds`)
 */
export function liveSessionChecks(findLive: (ids: string[]) => Promise<LiveSession[]>, maxIds: number) {
  const loader = new DataLoader<string, LiveSession | null>(
    async (ids) => {
      const live = new Map((await findLive([...new Set(ids)])).map((session) => [session.sessionId, session]));
      return ids.map((id) => live.get(id) ?? null);
    },
    { cache: false, batchScheduleFn: (run) => setImmediate(run), maxBatchSize: maxIds },
  );

  /** The session, if it is live and belongs to that user; otherwise null. */
  return async function liveSession(sessionId: string, userId: number): Promise<LiveSession | null> {
    const session = await loader.load(sessionId);
    return session?.userId === userId ? session : null;
  };
}
