import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Frozen. One row (id 1) naming this database with a random id, which DATA_DIR/store_id repeats
 * (storage/store-identity.ts): a server started on a DATA_DIR and a database that were never used
 * together refuses to start, rather than sweep the files the other database names.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('store_identity')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('store_id', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('store_identity').values({ id: 1, store_id: randomUUID() }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('store_identity').execute();
}
