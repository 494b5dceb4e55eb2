import { sql, type Kysely } from 'kysely';
import { autoIncrementId } from './columns.js';

/**
 * Frozen. The account center (docs/api.md, "Account center"): each session keeps the device and
 * address of its sign-in or last refresh and when it was last used (a session of before this
 * migration counts as last used when it began); an e-mail change waits for its confirmation link in
 * `email_change_tokens`, stored hashed like reset tokens.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('sessions')
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('sessions').addColumn('last_used_at', 'text').execute();
  await sql`UPDATE sessions SET last_used_at = created_at`.execute(db);

  await db.schema
    .createTable('email_change_tokens')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('new_email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('email_change_tokens_user_id').on('email_change_tokens').column('user_id').execute();
  await db.schema
    .createIndex('email_change_tokens_expires_at')
    .on('email_change_tokens')
    .column('expires_at')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('email_change_tokens').execute();
  for (const column of ['last_used_at', 'ip', 'user_agent']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
