import type { Kysely } from 'kysely';
import type { TokenPair } from '@hello/contract';
import type { Database, SessionRow, UserRow } from '../db/schema.js';
import { commitUnlessNull } from '../db/commit-unless-null.js';
import * as sessions from '../repositories/sessions.js';
import { findUserShared, isUniqueViolation, lockUser } from '../repositories/users.js';
import type { Jwt } from './jwt.js';
import { liveSessionChecks } from './live-session-checks.js';

export type { Device } from '../repositories/sessions.js';

export type StartedSession = TokenPair & { sessionId: string };

/** Work a session's start does in its transaction (a code's use, a notice queued). */
type InTransaction = (trx: Kysely<Database>) => Promise<void>;

/** A session's `last_used_at` is written at most this often (docs/api.md, "Account center"). */
export const LAST_USED_INTERVAL_MS = 60_000;

/** A session started or refreshed with no User-Agent and address known (tests, the operators' CLI). */
const UNKNOWN_DEVICE: sessions.Device = { userAgent: '', ip: '' };

export interface Principal {
  userId: number;
  email: string;
  sessionId: string;
  /** The news list's revision when the session was checked: read in the same statement. */
  newsRevision: number | undefined;
}

/**
 * Sessions and their tokens. A refresh token names a server-side session; logout, password change
 * and password reset end sessions, and with them every token that names them.
 */
export function createSessionService(db: Kysely<Database>, jwt: Jwt, lifetimes: { access: number; refresh: number }) {
  const findLive = liveSessionChecks((ids) => sessions.findLiveSessions(db, ids), sessions.MAX_SESSIONS_PER_QUERY);

  async function refreshTokenFor(userId: number, sessionId: string, expiresAt: string): Promise<string> {
    return jwt.sign({ userId, sessionId, type: 'refresh' }, new Date(expiresAt));
  }

  async function accessTokenFor(userId: number, sessionId: string, sessionExpiresAt: string): Promise<string> {
    const expiresAt = Math.min(Date.now() + lifetimes.access * 1000, Date.parse(sessionExpiresAt));
    return jwt.sign({ userId, sessionId, type: 'access' }, new Date(expiresAt));
  }

  async function tokensOf(session: SessionRow): Promise<StartedSession> {
    return {
      sessionId: session.id,
      access: await accessTokenFor(session.user_id, session.id, session.expires_at),
      refresh: await refreshTokenFor(session.user_id, session.id, session.expires_at),
    };
  }

  // Touches under way, so that a burst of requests of one session at the minute's turn writes once.
  const touching = new Set<string>();
  const stale = (lastUsedAt: string | null) =>
    lastUsedAt === null || Date.now() - Date.parse(lastUsedAt) >= LAST_USED_INTERVAL_MS;

  async function principalOf(token: string, type: 'access' | 'refresh') {
    const claims = jwt.verify(token, type);
    if (!claims) return null;
    const live = await findLive(claims.sessionId, claims.userId);
    if (live && stale(live.lastUsedAt) && !touching.has(live.sessionId)) {
      touching.add(live.sessionId);
      try {
        await sessions.touchSession(db, live.sessionId, LAST_USED_INTERVAL_MS);
      } finally {
        touching.delete(live.sessionId);
      }
    }
    return live;
  }

  return {
    /** Starts a session for the user, in a transaction of its own. */
    async start(userId: number, device = UNKNOWN_DEVICE): Promise<StartedSession> {
      return tokensOf(await sessions.createSession(db, userId, lifetimes.refresh, device));
    },
    /**
     * Starts the first session of the user `makeUser` inserts, in its transaction (a registration):
     * both commit or neither does. Undefined, with nothing done, when `makeUser` made no user.
     */
    async startWithNewUser(
      makeUser: (trx: Kysely<Database>) => Promise<number | undefined>,
      device: sessions.Device,
    ): Promise<StartedSession | undefined> {
      const session = await db.transaction().execute(async (trx) => {
        const userId = await makeUser(trx);
        return userId === undefined ? undefined : sessions.createSession(trx, userId, lifetimes.refresh, device);
      });
      return session && tokensOf(session);
    },
    /**
     * Starts the session of a login that checked the password against `user.password_hash` and found
     * two-step sign-in off, in a transaction that first reads the user's row again, share-locked on
     * PostgreSQL until the session is in: a reset (which ends the sessions) or two-step sign-in turned
     * on (which ends the others) either commits before this read, which sees it, or waits for the
     * session and ends it. Null when the row is gone or its hash is
     * another (a reset or change of the password ended every session: this one must not live);
     * `{ twoStep }`, the row as it is now, with no session, when two-step sign-in was turned on
     * meanwhile: the login goes on as for such an account, to its code step. `alsoInTransaction` runs
     * after the session's insert, in its transaction.
     */
    async startWithPassword(
      user: Pick<UserRow, 'id' | 'password_hash'>,
      device: sessions.Device,
      alsoInTransaction: InTransaction = async () => {},
    ): Promise<StartedSession | { twoStep: UserRow } | null> {
      const started = await commitUnlessNull<Database, { twoStep: UserRow } | { session: SessionRow }>(
        db,
        async (trx) => {
          const now = await findUserShared(trx, user.id);
          if (!now || now.password_hash !== user.password_hash) return null;
          if (now.totp_secret !== null) return { twoStep: now };
          const session = await sessions.createSession(trx, user.id, lifetimes.refresh, device);
          await alsoInTransaction(trx);
          return { session };
        },
      );
      if (!started) return null;
      return 'twoStep' in started ? started : tokensOf(started.session);
    },
    /**
     * Starts the session of a login's code step, of the id its mfa token names, in one transaction with
     * `alsoInTransaction` (the code's use), which rolls it back by answering false: null then, as when
     * a session of that id exists already (the same token's other code step started it) or the user is
     * gone. The user's row is locked first (PostgreSQL), as an account deletion or a reset locks it
     * before the rows that hang off it: the session's insert and the code's use (a write of the row)
     * after it cannot deadlock with them. A second start of the same id waits at that lock for the
     * first one's transaction to end.
     */
    async startWithCode(
      userId: number,
      device: sessions.Device,
      sessionId: string,
      alsoInTransaction: (trx: Kysely<Database>) => Promise<boolean>,
    ): Promise<StartedSession | null> {
      let session;
      try {
        session = await commitUnlessNull(db, async (trx) => {
          if (!(await lockUser(trx, userId))) return null;
          const row = await sessions.createSession(trx, userId, lifetimes.refresh, device, new Date(), sessionId);
          return (await alsoInTransaction(trx)) ? row : null;
        });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
      return session && tokensOf(session);
    },
    /** A new access token for a live session's refresh token, or null; the session notes the device. */
    async refresh(refreshToken: string, device = UNKNOWN_DEVICE): Promise<string | null> {
      const live = await principalOf(refreshToken, 'refresh');
      if (!live) return null;
      await sessions.recordRefresh(db, live.sessionId, device);
      return accessTokenFor(live.userId, live.sessionId, live.expiresAt);
    },
    /**
     * The refresh token of the caller's session, which expires at `expiresAt` and was found live in the
     * transaction of the change it answers (a profile save, a password change: sessions.useLiveSession).
     */
    refreshTokenOf: (principal: Principal, expiresAt: string): Promise<string> =>
      refreshTokenFor(principal.userId, principal.sessionId, expiresAt),
    /** Who is calling with this access or refresh token, while its session lives; null otherwise. */
    async authenticate(token: string, type: 'access' | 'refresh'): Promise<Principal | null> {
      const live = await principalOf(token, type);
      return (
        live && { userId: live.userId, email: live.email, sessionId: live.sessionId, newsRevision: live.newsRevision }
      );
    },
    end: (sessionId: string) => sessions.endSession(db, sessionId),
    /** Ends one live session of the user (the account center); false when there is no such session. */
    endOfUser: (userId: number, sessionId: string) => sessions.endUserSession(db, userId, sessionId),
    /** Ends every live session of the user but `keepSessionId`; how many it ended. */
    endAllOfUser: (userId: number, keepSessionId?: string) => sessions.endUserSessions(db, userId, keepSessionId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
