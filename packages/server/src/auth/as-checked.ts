import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../db/schema.js';
import { httpErrors, type ApiError } from '../http-errors.js';
import { useLiveSession } from '../repositories/sessions.js';
import { stillAsRead } from '../repositories/users.js';

/**
 * First in the transaction of a change of the caller's account that checked their password (or a
 * code) before it began: the change commits only if, meanwhile, the caller's session did not end (a
 * logout, a reset) and the user's row kept the password hash and address it was read with (no reset,
 * password change or confirmed change of address). Throws, so that nothing of the change stays:
 * 401 when the session ended, `changed()` when only the row did.
 *
 * On PostgreSQL the user's row is locked (as changeAccount locks it), then the session's, until the
 * commit: the order a password change and a reset take them, so a reset or logout that comes now
 * waits for the change, or came first and refuses it, and none deadlocks with it.
 */
export async function requireAsChecked(
  trx: Kysely<Database>,
  user: Pick<UserRow, 'id' | 'password_hash' | 'email_key'>,
  sessionId: string,
  changed: () => ApiError,
): Promise<void> {
  const unchanged = await stillAsRead(trx, user, true);
  if (!(await useLiveSession(trx, sessionId))) throw httpErrors.tokenNotValid('Bearer');
  if (!unchanged) throw changed();
}
