import type { Kysely } from 'kysely';
import { autoIncrementId } from './columns.js';

/**
 * Frozen. Two-step sign-in (docs/api.md, "Two-step sign-in"): the user's TOTP secret, sealed (while
 * set up and not yet confirmed, in `totp_pending_secret`); the time step of the last code accepted,
 * so that no code is accepted twice, whichever instance sees it; ten recovery codes, hashed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();

  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('id', ...autoIncrementId(db))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('totp_recovery_codes_user_id').on('totp_recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('totp_recovery_codes').execute();
  for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_pending_secret', 'totp_secret']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
