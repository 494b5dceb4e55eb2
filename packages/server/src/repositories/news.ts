import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database, NewsFileRow } from '../db/schema.js';

type Db = Kysely<Database>;

export interface NewsItemWithFiles {
  id: number;
  title: string;
  content: string;
  created_at: string;
  author: string;
  files: Pick<NewsFileRow, 'id' | 'original_name' | 'size' | 'content_type'>[];
}

export interface NewFile {
  storageName: string;
  originalName: string;
  size: number;
  contentType: string;
}

/**
 * Every item, newest first, with its author's e-mail and its files in upload order: two queries
 * whatever the number of items (never one per item).
 */
export async function listNews(db: Db): Promise<NewsItemWithFiles[]> {
  const items = await db
    .selectFrom('news_items')
    .innerJoin('users', 'users.id', 'news_items.author_id')
    .select(['news_items.id', 'news_items.title', 'news_items.content', 'news_items.created_at', 'users.email as author'])
    .orderBy('news_items.created_at', 'desc')
    .orderBy('news_items.id', 'desc')
    .execute();
  if (items.length === 0) return [];
  // Every item is listed, so every file is wanted: no id list (and no bound-parameter limit) needed.
  const files = await db
    .selectFrom('news_files')
    .select(['id', 'news_id', 'original_name', 'size', 'content_type'])
    .orderBy('news_id')
    .orderBy('position')
    .execute();
  const byItem = new Map<number, NewsItemWithFiles['files']>();
  for (const { news_id, ...file } of files) {
    const list = byItem.get(news_id);
    if (list) list.push(file);
    else byItem.set(news_id, [file]);
  }
  return items.map((item) => ({ ...item, files: byItem.get(item.id) ?? [] }));
}

/**
 * The news list's revision: raised in the same transaction as every change to the list, so a kept
 * answer (routes/api/v1/localnews/news-list-cache.ts) is reused only while this number stands.
 * A change made by hand in SQL must raise it too: `UPDATE news_revision SET revision = revision + 1`.
 */
export async function newsRevision(db: Db): Promise<number> {
  const [row] = await revisionQuery(db);
  if (!row) throw new Error('news_revision has no row (migration 2026-11-22-003)');
  return Number(row.revision);
}

const revisionQuery = precompiled([] as [], (db) => db.selectFrom('news_revision').select('revision').where('id', '=', 1));

const raiseNewsRevision = (db: Db) =>
  db.updateTable('news_revision').set((eb) => ({ revision: eb('revision', '+', 1) })).where('id', '=', 1).execute();

/** Stores an item and all of its file rows in one transaction: all or nothing. */
export async function insertNewsItem(
  db: Db,
  item: { authorId: number; title: string; content: string; createdAt: string },
  files: NewFile[],
): Promise<{ id: number; fileIds: number[] }> {
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('news_items')
      .values({ author_id: item.authorId, title: item.title, content: item.content, created_at: item.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    // (VALUES with no rows is not SQL; an item from the API always has files, one from code may not.)
    const rows =
      files.length === 0
        ? []
        : await trx
            .insertInto('news_files')
            .values(
              files.map((f, position) => ({
                news_id: id,
                storage_name: f.storageName,
                original_name: f.originalName,
                size: f.size,
                content_type: f.contentType,
                position,
              })),
            )
            .returning(['id', 'position'])
            .execute();
    const fileIds = rows.sort((a, b) => a.position - b.position).map((r) => r.id);
    await raiseNewsRevision(trx);
    return { id, fileIds };
  });
}

/** Undoes an insert whose files could not be put in place (the files cascade). */
export async function deleteNewsItem(db: Db, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('news_items').where('id', '=', id).execute();
    await raiseNewsRevision(trx);
  });
}

export function findNewsFile(db: Db, id: number) {
  return db
    .selectFrom('news_files')
    .select(['storage_name', 'original_name', 'size', 'content_type'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The subset of `names` that some file row stores: what the start-up sweep must keep. */
export async function knownUploadNames(db: Db, names: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < names.length; i += 500) {
    const rows = await db.selectFrom('news_files').select('storage_name').where('storage_name', 'in', names.slice(i, i + 500)).execute();
    for (const row of rows) known.add(row.storage_name);
  }
  return known;
}
