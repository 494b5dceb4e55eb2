import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { useSingleUseToken } from './single-use-tokens.js';

type Db = Kysely<Database>;

/** A pending e-mail change; only the token's hash is stored (auth/reset-tokens.ts makes both). */
export async function insertEmailChangeToken(
  db: Db,
  userId: number,
  newEmail: string,
  tokenHash: string,
  lifetimeSeconds: number,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto('email_change_tokens')
    .values({
      user_id: userId,
      new_email: newEmail,
      token_hash: tokenHash,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
      used_at: null,
    })
    .execute();
}

/** The token's change, with the account's current e-mail, if the token is neither used nor expired. */
export function findUsableEmailChangeToken(db: Db, tokenHash: string, now = new Date()) {
  return db
    .selectFrom('email_change_tokens')
    .innerJoin('users', 'users.id', 'email_change_tokens.user_id')
    .select([
      'email_change_tokens.id as id',
      'email_change_tokens.new_email as newEmail',
      'users.id as userId',
      'users.email as email',
    ])
    .where('email_change_tokens.token_hash', '=', tokenHash)
    .where('email_change_tokens.used_at', 'is', null)
    .where('email_change_tokens.expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

/** Uses the link up, and every other pending change of the user with it (single-use-tokens.ts). */
export const useEmailChangeToken = (db: Db, tokenId: number, userId: number, now = new Date()): Promise<boolean> =>
  useSingleUseToken(db, 'email_change_tokens', tokenId, userId, now);
