import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database, SessionRow } from '../db/schema.js';

type Db = Kysely<Database>;

export async function createSession(
  db: Db,
  userId: number,
  lifetimeSeconds: number,
  now = new Date(),
): Promise<SessionRow> {
  const session: SessionRow = {
    id: randomUUID(),
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    ended_at: null,
  };
  await db.insertInto('sessions').values(session).execute();
  return session;
}

/** A session that is neither ended nor expired, with its user's e-mail and the news list's revision. */
export interface LiveSession {
  sessionId: string;
  expiresAt: string;
  userId: number;
  email: string;
  /** repositories/news.ts, newsRevision; undefined only in a damaged database (no revision row). */
  newsRevision: number | undefined;
}

/**
 * The most sessions one statement asks for. A list is padded (with its last id again) to the next
 * of a few fixed lengths, so that a handful of compiled statements serve every batch.
 */
export const MAX_SESSIONS_PER_QUERY = 64;
const LIST_LENGTHS = [1, 4, 16, MAX_SESSIONS_PER_QUERY];

const liveSessionsOfLength = new Map(
  LIST_LENGTHS.map((length) => {
    const samples = [...Array.from({ length }, (_, i) => `sample-session-${i}`), 'sample-now'];
    const query = precompiled(samples, (db, ...params) =>
      db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'sessions.id as sessionId',
          'sessions.expires_at as expiresAt',
          'users.id as userId',
          'users.email as email',
        ])
        .select((eb) => eb.selectFrom('news_revision').select('revision').where('id', '=', 1).as('newsRevision'))
        .where('sessions.id', 'in', params.slice(0, -1))
        .where('sessions.ended_at', 'is', null)
        .where('sessions.expires_at', '>', params.at(-1)!),
    );
    return [length, query] as const;
  }),
);

/**
 * Those of the sessions (at most MAX_SESSIONS_PER_QUERY ids) that are neither ended nor expired,
 * each with its user's e-mail; and, read in the same statement, the news list's revision
 * (repositories/news.ts, newsRevision), which the list needs on every request: one statement where
 * there would be two is one round trip less on PostgreSQL and one read lock less on SQLite, which
 * cost more than the query itself. Asked for every authenticated request (auth/live-session-checks.ts
 * gathers those of one event-loop turn), so each statement is compiled once (db/precompiled.ts).
 */
export async function findLiveSessions(
  db: Db,
  sessionIds: readonly string[],
  now = new Date(),
): Promise<LiveSession[]> {
  const length = LIST_LENGTHS.find((each) => each >= sessionIds.length);
  if (sessionIds.length === 0 || length === undefined)
    throw new RangeError(`findLiveSessions: ${sessionIds.length} ids`);
  const ids = Array.from({ length }, (_, i) => sessionIds[Math.min(i, sessionIds.length - 1)]!);
  const rows = await liveSessionsOfLength.get(length)!(db, ...ids, now.toISOString());
  // No revision row (a damaged database) leaves it to the list to ask, and to say what is wrong.
  return rows.map((row) => ({
    ...row,
    newsRevision: row.newsRevision === null ? undefined : Number(row.newsRevision),
  }));
}

export async function endSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends every live session of the user, but `keepSessionId` when given. */
export async function endUserSessions(db: Db, userId: number, keepSessionId?: string, now = new Date()): Promise<void> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}
