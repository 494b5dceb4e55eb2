import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../db/schema.js';
import { ApiError } from '../http-errors.js';
import type { Subjects, Ticket } from '../security/rate-limiter.js';
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
  const ticket = await loginAttempt(app, { account: emailKey(email), ip });
  const user = await findUserByEmail(app.db, email);
  const ok = user
    ? await app.passwords.verify(user.password_hash, password)
    : await app.passwords.verifyDecoy(password);
  if (!user || !ok) {
    app.metrics.login('failure');
    return null;
  }
  await ticket.refund();
  if (!app.passwords.needsRehash(user.password_hash)) return user;
  // The hashing cost was raised since this hash was made: store one at today's cost, and answer the
  // row as it now is (an mfa token is bound to the stored hash, auth/two-step.ts).
  // Unless a reset or change came first: the hash of this (old) password must not overwrite theirs.
  const passwordHash = await app.passwords.hash(password);
  if (!(await replacePasswordHash(app.db, user.id, user.password_hash, passwordHash))) return null;
  return { ...user, password_hash: passwordHash };
}

/**
 * One login attempt (a password, or a login's code step) counted under the failed-login limit; a
 * refusal is counted by the metrics as `throttled`. Success is counted where a session starts: a
 * right password of a two-step account is not yet a login.
 */
export async function loginAttempt(app: FastifyInstance, subjects: Subjects): Promise<Ticket> {
  return app.rateLimits.consume('login', subjects).catch((error: unknown) => {
    if (error instanceof ApiError && error.statusCode === 429) app.metrics.login('throttled');
    throw error;
  });
}

/** Checks the password of a signed-in user (a password change), under the failed-login limit's numbers. */
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
  const counted = await ownAttempt(app, ip, user);
  const ok = await app.passwords.verify(user.password_hash, password);
  return { ok, succeeded: counted.refund };
}

/**
 * One attempt of a signed-in user at their own password or code, under the login limit's numbers. It
 * is refused by the user's own count (and the address's), never by the account's: strangers' failed
 * logins on the address must not lock its owner out of changing the password or turning on two-step
 * sign-in, the very remedies. It still counts as a failed login on the account until taken back.
 */
export async function ownAttempt(app: FastifyInstance, ip: string, user: UserRow): Promise<Ticket> {
  const own = await app.rateLimits.consume('login', { user: String(user.id), ip });
  const account = await app.rateLimits.count('login', { account: user.email_key });
  return {
    refund: async () => {
      await own.refund();
      await account.refund();
    },
  };
}
