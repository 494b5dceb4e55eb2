import type { FastifyInstance } from 'fastify';
import { serverMessages } from '@hello/contract';
import { httpErrors } from '../http-errors.js';
import { findUserByEmail, insertUser } from '../repositories/users.js';
import type { Device } from './sessions.js';

/**
 * Creates the account and its first session, in one transaction; answers the session's refresh token (the `key`).
 *
 * An address that has an account already (in any letter case) is answered 400 with the e-mail error
 * (docs/api.md, "Registration"). It could not be hidden: the API logs a new user in at once, so a key
 * that does not work tells the same thing one call later. The registration limit, which counts
 * every attempt, is what makes probing addresses slow.
 */
export async function register(app: FastifyInstance, email: string, password: string, device: Device): Promise<string> {
  const hash = await app.passwords.hash(password);
  // The user and its session in one transaction: a failed start leaves no account behind, whose
  // address could then not register again.
  const started = await app.sessions.startWithNewUser(async (trx) => (await insertUser(trx, email, hash))?.id, device);
  // Registered since emailProblems looked
  if (!started) throw httpErrors.fields({ email: [serverMessages.emailTaken] });
  return started.refresh;
}

/** The e-mail's field errors: taken when the address has an account (in any letter case). */
export async function emailProblems(app: FastifyInstance, email: string): Promise<string[]> {
  return (await findUserByEmail(app.db, email)) ? [serverMessages.emailTaken] : [];
}
