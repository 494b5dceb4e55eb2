import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TokenPair } from '@hello/contract';
import type { Database } from '../db/schema.js';
import * as sessions from '../repositories/sessions.js';
import type { Jwt } from './jwt.js';
import { liveSessionChecks } from './live-session-checks.js';

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

  async function principalOf(token: string, type: 'access' | 'refresh') {
    const claims = jwt.verify(token, type);
    if (!claims) return null;
    return findLive(claims.sessionId, claims.userId);
  }

  return {
    /** Starts a session for the user: the answer of a login. */
    async start(userId: number): Promise<TokenPair & { sessionId: string }> {
      const session = await sessions.createSession(db, userId, lifetimes.refresh);
      return {
        sessionId: session.id,
        access: await accessTokenFor(userId, session.id, session.expires_at),
        refresh: await refreshTokenFor(userId, session.id, session.expires_at),
      };
    },
    /** A new access token for a live session's refresh token, or null. */
    async refresh(refreshToken: string): Promise<string | null> {
      const live = await principalOf(refreshToken, 'refresh');
      return live ? accessTokenFor(live.userId, live.sessionId, live.expiresAt) : null;
    },
    /** A refresh token for a session that is already live (profile save, password change). */
    async reissueRefresh(principal: Principal): Promise<string> {
      const live = await findLive(principal.sessionId, principal.userId);
      if (!live) throw new Error('session ended');
      return refreshTokenFor(live.userId, live.sessionId, live.expiresAt);
    },
    /**
     * A refresh token shaped like a real one but naming a session that does not exist, so it never
     * authenticates: the registration answer for an address that is taken (see auth/registration.ts).
     */
    async unusableRefresh(userId: number): Promise<string> {
      return refreshTokenFor(userId, randomUUID(), new Date(Date.now() + lifetimes.refresh * 1000).toISOString());
    },
    /** Who is calling with this access or refresh token, while its session lives; null otherwise. */
    async authenticate(token: string, type: 'access' | 'refresh'): Promise<Principal | null> {
      const live = await principalOf(token, type);
      return (
        live && { userId: live.userId, email: live.email, sessionId: live.sessionId, newsRevision: live.newsRevision }
      );
    },
    end: (sessionId: string) => sessions.endSession(db, sessionId),
    endAllOfUser: (userId: number, keepSessionId?: string) => sessions.endUserSessions(db, userId, keepSessionId),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
