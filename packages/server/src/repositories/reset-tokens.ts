import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { useSingleUseToken } from './single-use-tokens.js';

type Db = Kysely<Database>;

export async function insertResetToken(
  db: Db,
  userId: number,
  tokenHash: string,
  lifetimeSeconds: number,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({
      user_id: userId,
      token_hash: tokenHash,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
      used_at: null,
    })
    .execute();
}

/** The token's row with its user's e-mail, if it is neither used nor expired. */
export function findUsableResetToken(db: Db, tokenHash: string, now = new Date()) {
  return db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select(['password_reset_tokens.id as id', 'users.id as userId', 'users.email as email'])
    .where('password_reset_tokens.token_hash', '=', tokenHash)
    .where('password_reset_tokens.used_at', 'is', null)
    .where('password_reset_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

/** Uses the reset token up (repositories/single-use-tokens.ts); false when a concurrent call won. */
export const useResetToken = (db: Db, tokenId: number, userId: number, now = new Date()): Promise<boolean> =>
  useSingleUseToken(db, 'password_reset_tokens', tokenId, userId, now);
