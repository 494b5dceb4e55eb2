import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database, SessionRow } from '../db/schema.js';

type Db = Kysely<Database>;

/** The device a session was signed in or last refreshed from. */
export interface Device {
  userAgent: string;
  ip: string;
}

/** User-Agent strings are kept to this many characters: enough to tell devices apart. */
export const MAX_USER_AGENT_LENGTH = 512;

const deviceColumns = (device: Device) => ({
  user_agent: device.userAgent.slice(0, MAX_USER_AGENT_LENGTH),
  ip: device.ip,
});

export async function createSession(
  db: Db,
  userId: number,
  lifetimeSeconds: number,
  device: Device,
  now = new Date(),
  id: string = randomUUID(),
): Promise<SessionRow> {
  const session: SessionRow = {
    id,
    user_id: userId,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    ended_at: null,
    ...deviceColumns(device),
    last_used_at: now.toISOString(),
  };
  await db.insertInto('sessions').values(session).execute();
  return session;
}

/**
 * The session's expiry while it is neither ended nor expired, its use recorded now; undefined
 * otherwise. The write locks its row until the transaction ends (PostgreSQL), so a logout of it then
 * waits for the transaction, or the transaction for the logout.
 */
export async function useLiveSession(db: Db, sessionId: string, now = new Date()) {
  const row = await db
    .updateTable('sessions')
    .set({ last_used_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returning('expires_at')
    .executeTakeFirst();
  return row?.expires_at;
}

/** Thrown inside a change's transaction when its caller's session has ended meanwhile: nothing of it stays. */
export class SessionEnded extends Error {
  constructor() {
    super('the session ended before the change committed');
  }
}

/**
 * In a change's transaction, before the rows it changes: the change commits only if the caller's
 * session still lives. The session's row stays locked until the commit on PostgreSQL, so a logout,
 * a session's end or the account's deletion (which ends the sessions before it deletes the items)
 * waits for the change or comes before it, never between.
 */
export async function requireLiveSession(db: Db, sessionId: string): Promise<void> {
  if (!(await useLiveSession(db, sessionId))) throw new SessionEnded();
}

/** True when a session of this id was ever started (and not yet removed by the retention job). */
export async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  const row = await db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst();
  return row !== undefined;
}

/** A session that is neither ended nor expired, with its user's e-mail and the news list's revision. */
export interface LiveSession {
  sessionId: string;
  expiresAt: string;
  userId: number;
  email: string;
  /** repositories/news.ts, newsRevision; undefined only in a damaged database (no revision row). */
  newsRevision: number | undefined;
  /** When the session was last used, to the minute (touchSession); null only before migration 005 filled it. */
  lastUsedAt: string | null;
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
          'sessions.last_used_at as lastUsedAt',
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

/**
 * Records that the session was used now, unless it was less than `minIntervalMs` ago: so a session
 * costs at most one write a minute however many requests it makes, on however many instances (the
 * condition lets only the first of them write).
 */
export async function touchSession(db: Db, sessionId: string, minIntervalMs: number, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_used_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where((eb) =>
      eb.or([
        eb('last_used_at', 'is', null),
        eb('last_used_at', '<', new Date(now.getTime() - minIntervalMs).toISOString()),
      ]),
    )
    .execute();
}

/** A token refresh: the session is used now, from this device. */
export async function recordRefresh(db: Db, sessionId: string, device: Device, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ...deviceColumns(device), last_used_at: now.toISOString() })
    .where('id', '=', sessionId)
    .execute();
}

/** The user's live sessions, most recently used first. */
export async function listLiveSessions(db: Db, userId: number, now = new Date()) {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_used_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .execute();
  return rows
    .map((row) => ({ ...row, last_used_at: row.last_used_at ?? row.created_at }))
    .sort((a, b) => b.last_used_at.localeCompare(a.last_used_at) || b.created_at.localeCompare(a.created_at));
}

/** Whether the user signed in or refreshed from this User-Agent since `since` (ended sessions count). */
export async function deviceSeenSince(db: Db, userId: number, userAgent: string, since: Date): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('user_agent', '=', userAgent.slice(0, MAX_USER_AGENT_LENGTH))
    .where('last_used_at', '>=', since.toISOString())
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function endSession(db: Db, sessionId: string, now = new Date()): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ ended_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Ends one live session of the user; false when the user has no such live session. */
export async function endUserSession(db: Db, userId: number, sessionId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ ended_at: now.toISOString() })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Ends every live session of the user, but `keepSessionId` when given; how many it ended. */
export async function endUserSessions(
  db: Db,
  userId: number,
  keepSessionId?: string,
  now = new Date(),
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ ended_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('ended_at', 'is', null)
    .where('expires_at', '>', now.toISOString());
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
