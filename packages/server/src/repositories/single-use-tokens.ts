import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The tables of tokens mailed in a link and used once: same columns (`id`, `user_id`, `used_at`). */
export type SingleUseTokenTable = 'password_reset_tokens' | 'email_change_tokens';

/**
 * Uses the token up, and with it every other unused token of the user in the same table (a reset or
 * an e-mail change done makes older links pointless, and a leaked one harmless). False when a
 * concurrent call used it first: the conditional update lets exactly one of them win.
 */
export async function useSingleUseToken(
  db: Kysely<Database>,
  table: SingleUseTokenTable,
  tokenId: number,
  userId: number,
  now = new Date(),
): Promise<boolean> {
  const usedAt = now.toISOString();
  // Both tables have these columns; Kysely's types take one table at a time.
  const tokens = () => db.updateTable(table as 'password_reset_tokens');
  const mine = await tokens()
    .set({ used_at: usedAt })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (Number(mine.numUpdatedRows) !== 1) return false;
  await useUpUserTokens(db, table, userId, now);
  return true;
}

/**
 * Uses up every unused token of the user in `table`: a new password makes the links mailed before it
 * void (a change of e-mail asked for from a stolen session dies with the reset that ends the session).
 */
export async function useUpUserTokens(
  db: Kysely<Database>,
  table: SingleUseTokenTable,
  userId: number,
  now = new Date(),
): Promise<void> {
  await db
    .updateTable(table as 'password_reset_tokens')
    .set({ used_at: now.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
