import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { ApiError } from '../http-errors.js';
import { emailKey, findUserByEmail, replacePasswordHash } from '../repositories/users.js';

/**
 * Checks an e-mail and password under the failed-login limit (per account and per client address).
 * An unknown e-mail costs one password verification too, so neither the answer nor its timing tells
 * whether the account exists. A success takes its counted attempt back: only failures count.
 */
export async function checkCredentials(
  app: FastifyInstance,
  ip: string,
  email: string,
  password: string,
): Promise<UserRow | null> {
  const ticket = await app.rateLimits.consume('login', { account: emailKey(email), ip }).catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 429) app.metrics.login('throttled');
    throw error;
  });
  const user = await findUserByEmail(app.db, email);
  const ok = user
    ? await app.passwords.verify(user.password_hash, password)
    : await app.passwords.verifyDecoy(password);
  app.metrics.login(user && ok ? 'success' : 'failure');
  if (!user || !ok) return null;
  await ticket.refund();
  if (!app.passwords.needsRehash(user.password_hash)) return user;
  // The hashing cost was raised since this hash was made: store one at today's cost, and answer the
  // row as it now is (an mfa token is bound to the stored hash, auth/two-step.ts).
  // Unless a reset or change came first: the hash of this (old) password must not overwrite theirs.
  const passwordHash = await app.passwords.hash(password);
  if (!(await replacePasswordHash(app.db, user.id, user.password_hash, passwordHash))) return null;
  return { ...user, password_hash: passwordHash };
}

/** Checks the password of a known user (a password change), under the same failed-login limit. */
export async function checkOwnPassword(
  app: FastifyInstance,
  ip: string,
  user: UserRow,
  password: string,
): Promise<boolean> {
  const attempt = await ownPasswordAttempt(app, ip, user, password);
  if (attempt.ok) await attempt.succeeded();
  return attempt.ok;
}

/**
 * The password check of a call that asks for more than the password (a code too): its attempt stays
 * counted until the caller says the whole call `succeeded`, so guesses sent at once cannot slip past
 * the limit while the password, then the code, is checked.
 */
export async function ownPasswordAttempt(
  app: FastifyInstance,
  ip: string,
  user: UserRow,
  password: string,
): Promise<{ ok: boolean; succeeded: () => Promise<void> }> {
  const ticket = await app.rateLimits.consume('login', { account: user.email_key, ip });
  const ok = await app.passwords.verify(user.password_hash, password);
  return { ok, succeeded: () => ticket.refund() };
}
