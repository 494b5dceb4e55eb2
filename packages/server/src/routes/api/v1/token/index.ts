import type { FastifyInstance } from 'fastify';
import {
  accessToken,
  apiPaths,
  loginRequest,
  refreshRequest,
  tokenPair,
  type AccessToken,
  type LoginRequest,
  type RefreshRequest,
  type TokenPair,
} from '@hello/contract';
import { checkCredentials } from '../../../../auth/login.js';
import { httpErrors } from '../../../../http-errors.js';
import { bodyErrors, consumes, unauthorized, throttled, unavailable } from '../../../../schemas/errors.js';

/** JWT login and refresh, as djangorestframework-simplejwt answered them. */
export default async function tokenRoutes(app: FastifyInstance) {
  app.post<{ Body: LoginRequest; Reply: TokenPair }>(
    apiPaths.token,
    {
      schema: {
        tags: ['auth'],
        summary: 'Log in: a new session, its access token and its refresh token',
        operationId: 'logIn',
        security: [],
        consumes,
        body: loginRequest,
        response: { 200: tokenPair, ...bodyErrors, 401: unauthorized, 429: throttled, 503: unavailable },
      },
    },
    async (request) => {
      const user = await checkCredentials(app, request.ip, request.body.email, request.body.password);
      // One answer for an unknown e-mail and a wrong password: nothing tells which it was.
      if (!user) throw httpErrors.noActiveAccount();
      const { access, refresh } = await app.sessions.start(user.id);
      return { access, refresh };
    },
  );

  app.post<{ Body: RefreshRequest; Reply: AccessToken }>(
    apiPaths.tokenRefresh,
    {
      schema: {
        tags: ['auth'],
        summary: 'A new access token for the refresh token of a live session',
        operationId: 'refreshAccessToken',
        security: [],
        consumes,
        body: refreshRequest,
        response: { 200: accessToken, ...bodyErrors, 401: unauthorized, 503: unavailable },
      },
    },
    async (request) => {
      const access = await app.sessions.refresh(request.body.refresh);
      if (!access) throw httpErrors.tokenNotValid();
      return { access };
    },
  );
}
