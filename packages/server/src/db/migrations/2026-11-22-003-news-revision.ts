import type { Kysely } from 'kysely';

/**
 * Frozen. One counter that every change to the news list raises (repositories/news.ts), so a
 * server can keep the list's answer and know, with one tiny query, whether it is still current,
 * even when another instance made the change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('news_revision')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('news_revision').values({ id: 1, revision: 0 }).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('news_revision').execute();
}
