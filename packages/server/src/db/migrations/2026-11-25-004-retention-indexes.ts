import type { Kysely } from 'kysely';

/**
 * Frozen. Indexes for the retention job (repositories/retention.ts): each of its batches finds the
 * old sessions and reset tokens by a range of one of these columns instead of reading the whole table
 * while it holds SQLite's write lock. Delivered mails are found by the existing `mail_outbox_pending`
 * (sent_at first); used tokens and given-up mails are too few to need one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('sessions_ended_at').on('sessions').column('ended_at').execute();
  await db.schema
    .createIndex('password_reset_tokens_expires_at')
    .on('password_reset_tokens')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of ['password_reset_tokens_expires_at', 'sessions_ended_at', 'sessions_expires_at']) {
    await db.schema.dropIndex(index).execute();
  }
}
