import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { credentials } from '../../auth/credentials.js';
import type { Principal } from '../../auth/sessions.js';
import { httpErrors } from '../../http-errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** preHandler: `Authorization: Bearer <access JWT>` of a live session. */
    requireBearer: preHandlerAsyncHookHandler;
    /** preHandler: `Authorization: Token <refresh token>` of a live session. */
    requireToken: preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    /** Who is calling; set by requireBearer / requireToken. */
    principal: Principal | null;
  }
}

/**
 * The two authorization schemes (docs/api.md, "Authentication"), where the wire meets the code.
 * `Bearer <x>`: x is an access token. `Token <x>`: x is a refresh token, the one value the wire calls
 * `refresh` (token calls), `key` (the registration's answer), `token` (api-token-auth's answer, and the
 * browser's localStorage key) and the `Token` scheme; the code calls it the refresh token everywhere.
 */
export default fp(
  async function auth(app: FastifyInstance) {
    app.decorateRequest('principal', null);

    app.decorate('requireBearer', async function (request: FastifyRequest) {
      request.principal = await app.sessions.authenticate(credentials(request, 'Bearer'), 'access');
      if (!request.principal) throw httpErrors.tokenNotValid('Bearer');
    });

    app.decorate('requireToken', async function (request: FastifyRequest) {
      request.principal = await app.sessions.authenticate(credentials(request, 'Token'), 'refresh');
      if (!request.principal) throw httpErrors.tokenNotValid('Token');
    });
  },
  { name: 'auth', dependencies: ['services'] },
);
