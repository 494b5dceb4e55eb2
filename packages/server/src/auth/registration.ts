import type { FastifyInstance } from 'fastify';
import { registrationAttemptMail } from '../mail/messages.js';
import { findUserByEmail, insertUser, nextUserId } from '../repositories/users.js';

/** At most one "someone tried to register with your address" mail per account per hour. */
const NOTICE_WINDOW_SECONDS = 3600;

/**
 * Creates the account and its first session; answers the session's refresh token (the `key`).
 *
 * An address that has an account already is NOT reported as taken (docs/api.md, "Registration": no
 * account enumeration by status, body or timing; test/api/enumeration.test.ts holds it). The caller
 * gets the same 201 `{key}`, with a key shaped like a real refresh token but naming a session that does
 * not exist, so it never logs anyone in; the same password hash is computed; and the owner is mailed a
 * notice telling them to log in or reset the password. Honest limit: whoever then tries to use the key
 * learns it does not work, so this makes probing slower (one more call, under the registration limit)
 * and visible to the owner, not impossible. Only verifying addresses by mail before logging in would
 * close it, and the API logs a new user in at once (the registration answers the first session's
 * `key`).
 */
export async function register(app: FastifyInstance, email: string, password: string): Promise<string> {
  // Hashed before we know whether the address is free, so both outcomes take the same time.
  const hash = await app.passwords.hash(password);
  const user = await insertUser(app.db, email, hash);
  if (user) return (await app.sessions.start(user.id)).refresh;

  const owner = await findUserByEmail(app.db, email);
  if (owner && (await app.rateLimits.firstInWindow('register-notice', owner.email_key, NOTICE_WINDOW_SECONDS))) {
    await app.mailer.send(registrationAttemptMail(owner.email, app.config.publicUrl));
  }
  // A user id such as a new account would get, so not even the token's payload tells the two apart.
  return app.sessions.unusableRefresh(await nextUserId(app.db));
}
