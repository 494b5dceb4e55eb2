import type { Kysely } from 'kysely';

/**
 * Frozen. A mail the outbox gave up on (still undelivered a day after it was written: its reset link
 * has long expired) is marked instead of being retried forever.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').addColumn('failed_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('mail_outbox').dropColumn('failed_at').execute();
}
