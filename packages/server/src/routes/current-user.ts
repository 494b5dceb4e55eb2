import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { httpErrors } from '../http-errors.js';
import { findUserById } from '../repositories/users.js';

/** The caller's user row; 401 when the account was deleted while its token lived. */
export async function currentUser(app: FastifyInstance, request: FastifyRequest): Promise<UserRow> {
  const user = await findUserById(app.db, request.principal!.userId);
  if (!user) throw httpErrors.tokenNotValid('Bearer'); // the account's calls take a Bearer token
  return user;
}
