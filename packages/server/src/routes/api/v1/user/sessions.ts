import type { FastifyInstance } from 'fastify';
import {
  apiPaths,
  errorBody,
  revokeOthersResponse,
  sessionList,
  type RevokeOthersResponse,
  type SessionInfo,
} from '@hello/contract';
import { httpErrors } from '../../../../http-errors.js';
import { listLiveSessions } from '../../../../repositories/sessions.js';
import { maskedAddress } from '../../../../security/masked-address.js';
import { unauthorized, unavailable } from '../../../../schemas/errors.js';

/** A session id in a URL: the UUID the server made; any other segment is no session (404). */
const sessionIdPath = apiPaths.userSession.replace(
  ':id',
  ':id(^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$)',
);

/** The caller's live sessions as the account center lists them (also in the export). */
export async function sessionsOf(
  app: FastifyInstance,
  userId: number,
  currentSessionId: string,
): Promise<SessionInfo[]> {
  return (await listLiveSessions(app.db, userId)).map((s) => ({
    id: s.id,
    created_at: s.created_at,
    last_used_at: s.last_used_at,
    user_agent: s.user_agent,
    ip: maskedAddress(s.ip),
    current: s.id === currentSessionId,
  }));
}

/**
 * Where the caller is signed in, and ending those sessions (docs/api.md, "Account center"). An ended
 * session's tokens are refused at once on every instance: each request asks the database whether its
 * session lives (auth/sessions.ts).
 */
export default async function sessionRoutes(app: FastifyInstance) {
  const auth = { onRequest: app.requireBearer };
  const security = [{ bearer: [] }];

  app.get<{ Reply: SessionInfo[] }>(
    apiPaths.userSessions,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: "The caller's live sessions, most recently used first",
        operationId: 'listSessions',
        security,
        response: { 200: sessionList, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => sessionsOf(app, request.principal!.userId, request.principal!.sessionId),
  );

  app.delete(
    sessionIdPath,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: "End one of the caller's sessions (its refresh and access tokens stop working at once)",
        operationId: 'endSession',
        security,
        params: { type: 'object', properties: { id: { type: 'string', format: 'uuid', description: 'Session id.' } } },
        response: {
          204: { description: 'Ended.', type: 'null' },
          401: unauthorized,
          404: errorBody,
          503: unavailable,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!(await app.sessions.endOfUser(request.principal!.userId, id))) throw httpErrors.notFound();
      return reply.code(204).send();
    },
  );

  app.post<{ Reply: RevokeOthersResponse }>(
    apiPaths.revokeOtherSessions,
    {
      ...auth,
      schema: {
        tags: ['account'],
        summary: "End every session of the caller's but the one asking",
        operationId: 'endOtherSessions',
        security,
        response: { 200: revokeOthersResponse, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => ({
      revoked: await app.sessions.endAllOfUser(request.principal!.userId, request.principal!.sessionId),
    }),
  );
}
