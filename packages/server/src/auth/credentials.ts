import type { FastifyRequest } from 'fastify';
import { httpErrors, type AuthScheme } from '../http-errors.js';

/**
 * The token of an `Authorization: <scheme> <token>` header (the scheme in any case); a 401 otherwise,
 * naming the scheme the call takes, so a client told to authenticate knows which token to send.
 */
export function credentials(request: FastifyRequest, scheme: AuthScheme): string {
  const header = request.headers.authorization;
  if (!header) throw httpErrors.notAuthenticated(scheme);
  const [given, token, extra] = header.trim().split(/\s+/);
  if (given?.toLowerCase() !== scheme.toLowerCase() || !token || extra !== undefined)
    throw httpErrors.tokenNotValid(scheme);
  return token;
}
