import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database, SessionRow } from '../db/schema.js';

type Db = Kysely<Database>;

export async function createSession(db: Db, userId: number, lifetimeSeconds: number, now = new Date()): Promise<SessionRow> {
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

const liveSession = precompiled(['sample-session', -1, 'sample-now'] as [string, number, string], (db, sessionId, userId, now) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.id as sessionId', 'sessions.expires_at as expiresAt', 'users.id as userId', 'users.email as email'])
    .select((eb) => eb.selectFrom('news_revision').select('revision').where('id', '=', 1).as('newsRevision'))
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.ended_at', 'is', null)
    .where('sessions.expires_at', '>', now),
);

/**
 * The session with its user's e-mail, if it is neither ended nor expired and belongs to that user;
 * and, read in the same statement, the news list's revision (repositories/news.ts, newsRevision),
 * which the list needs on every request: one statement where there would be two is one round trip
 * less on PostgreSQL and one read lock less on SQLite, which cost more than the query itself.
 * Asked on every authenticated request, so compiled once (db/precompiled.ts).
 */
export async function findLiveSession(db: Db, sessionId: string, userId: number, now = new Date()) {
  const [live] = await liveSession(db, sessionId, userId, now.toISOString());
  // No revision row (a damaged database) leaves it to the list to ask, and to say what is wrong.
  return live && { ...live, newsRevision: live.newsRevision === null ? undefined : Number(live.newsRevision) };
}

export async function endSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db.updateTable('sessions').set({ ended_at: now.toISOString() }).where('id', '=', sessionId).where('ended_at', 'is', null).execute();
}

/** Ends every live session of the user, but `keepSessionId` when given. */
export async function endUserSessions(db: Db, userId: number, keepSessionId?: string, now = new Date()): Promise<void> {
  let query = db.updateTable('sessions').set({ ended_at: now.toISOString() }).where('user_id', '=', userId).where('ended_at', 'is', null);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  await query.execute();
}
