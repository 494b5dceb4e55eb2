import type { Kysely } from 'kysely';
import { isPostgres } from '../db/database.js';
import { precompiled } from '../db/precompiled.js';
import type { Database, NewsFileRow } from '../db/schema.js';
import { requireLiveSession } from './sessions.js';

type Db = Kysely<Database>;

export interface NewsItemWithFiles {
  id: number;
  title: string;
  content: string;
  created_at: string;
  author: string;
  /** `storage_name` is never shown: its link's signature covers it (storage/signed-urls.ts). */
  files: Pick<NewsFileRow, 'id' | 'storage_name' | 'original_name' | 'size' | 'content_type'>[];
}

export interface NewFile {
  storageName: string;
  originalName: string;
  size: number;
  contentType: string;
}

/** Where a page of the list starts: just after (older than) this item. */
export interface NewsPosition {
  createdAt: string;
  id: number;
}

/**
 * A page of the list, newest first: at most `limit` items older than `before` (keyset pagination on
 * the (created_at, id) index, so the 1000th page costs what the first does), with authors and files.
 * `more` tells whether older items exist, read as one extra row.
 */
/** Items with their author's e-mail, as the API shows them (their files come by withFiles). */
const itemsWithAuthor = (db: Db) =>
  db
    .selectFrom('news_items')
    .innerJoin('users', 'users.id', 'news_items.author_id')
    .select([
      'news_items.id',
      'news_items.title',
      'news_items.content',
      'news_items.created_at',
      'users.email as author',
    ]);

export async function listNewsPage(
  db: Db,
  limit: number,
  before?: NewsPosition,
): Promise<{ items: NewsItemWithFiles[]; more: boolean }> {
  let query = itemsWithAuthor(db)
    .orderBy('news_items.created_at', 'desc')
    .orderBy('news_items.id', 'desc')
    .limit(limit + 1);
  if (before) {
    query = query.where((eb) =>
      eb(eb.refTuple('news_items.created_at', 'news_items.id'), '<', eb.tuple(before.createdAt, before.id)),
    );
  }
  const rows = await query.execute();
  const items = rows.slice(0, limit);
  return { items: await withFiles(db, items), more: rows.length > limit };
}

/** One item with its author's e-mail and id (for the author's rights) and its files; undefined if none. */
export async function findNewsItem(
  db: Db,
  id: number,
): Promise<(NewsItemWithFiles & { author_id: number }) | undefined> {
  const [item] = await itemQuery(db, id);
  return item && { ...item, files: await itemFilesQuery(db, id) };
}

// Compiled once (db/precompiled.ts): one item is read at random across the whole store, so it is
// rarely kept, and Kysely's building of these two queries cost as much as running them.
const itemQuery = precompiled([0] as [number], (db, id) =>
  db
    .selectFrom('news_items')
    .innerJoin('users', 'users.id', 'news_items.author_id')
    .select([
      'news_items.id',
      'news_items.title',
      'news_items.content',
      'news_items.created_at',
      'users.email as author',
      'news_items.author_id',
    ])
    .where('news_items.id', '=', id),
);
const itemFilesQuery = precompiled([0] as [number], (db, id) =>
  db
    .selectFrom('news_files')
    .select(['id', 'storage_name', 'original_name', 'size', 'content_type'])
    .where('news_id', '=', id)
    .orderBy('position'),
);

/** The author's id of an item; undefined when there is no such item. */
export async function findNewsAuthor(db: Db, id: number): Promise<number | undefined> {
  const row = await db.selectFrom('news_items').select('author_id').where('id', '=', id).executeTakeFirst();
  return row?.author_id;
}

/** Each item with its files in upload order: one query for all of them (never one per item). */
async function withFiles<T extends { id: number }>(
  db: Db,
  items: T[],
): Promise<(T & Pick<NewsItemWithFiles, 'files'>)[]> {
  if (items.length === 0) return [];
  const files = await db
    .selectFrom('news_files')
    .select(['id', 'news_id', 'storage_name', 'original_name', 'size', 'content_type'])
    .where(
      'news_id',
      'in',
      items.map((item) => item.id),
    )
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
 * answer (routes/api/v1/localnews/news-page-cache.ts) is reused only while this number stands.
 * A change made by hand in SQL must raise it too: `UPDATE news_revision SET revision = revision + 1`.
 */
export async function newsRevision(db: Db): Promise<number> {
  const [row] = await revisionQuery(db);
  if (!row) throw new Error('news_revision has no row (migration 2026-11-22-003)');
  return Number(row.revision);
}

const revisionQuery = precompiled([] as [], (db) =>
  db.selectFrom('news_revision').select('revision').where('id', '=', 1),
);

/** Raises the revision; the new one. */
async function raiseNewsRevision(db: Db): Promise<number> {
  const { revision } = await db
    .updateTable('news_revision')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', 1)
    .returning('revision')
    .executeTakeFirstOrThrow();
  return Number(revision);
}

/**
 * After an account's e-mail address changed: every item shows its author's address, so the kept
 * answers of the list and of items (news-page-cache.ts) are made again, by every instance.
 */
export async function accountEmailChanged(db: Db): Promise<void> {
  await raiseNewsRevision(db);
}

/** Adds file rows to an item from `firstPosition` on; their ids in the order given. */
async function insertFiles(trx: Db, newsId: number, files: NewFile[], firstPosition: number): Promise<number[]> {
  // VALUES with no rows is not SQL; an item from the API always has files, one from code may not.
  if (files.length === 0) return [];
  const rows = await trx
    .insertInto('news_files')
    .values(
      files.map((f, i) => ({
        news_id: newsId,
        storage_name: f.storageName,
        original_name: f.originalName,
        size: f.size,
        content_type: f.contentType,
        position: firstPosition + i,
      })),
    )
    .returning(['id', 'position'])
    .execute();
  return rows.sort((a, b) => a.position - b.position).map((r) => r.id);
}

/**
 * Stores an item and all of its file rows in one transaction: all or nothing. `revision` is the list's
 * revision this change raised it to.
 */
export async function insertNewsItem(
  db: Db,
  item: NewNewsItem,
  files: NewFile[],
): Promise<{ id: number; fileIds: number[]; revision: number; author: string }> {
  return db.transaction().execute(async (trx) => {
    if (item.sessionId !== undefined) await requireLiveSession(trx, item.sessionId);
    const { id } = await trx
      .insertInto('news_items')
      .values({ author_id: item.authorId, title: item.title, content: item.content, created_at: item.createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fileIds = await insertFiles(trx, id, files, 0);
    // The author's address as this transaction reads it, not as the request found it minutes before (an
    // upload): an e-mail change committed meanwhile is seen. One committing while this runs raises the
    // news revision after this, which makes the kept pages anew (news-page-cache.ts).
    const { email: author } = await trx
      .selectFrom('users')
      .select('email')
      .where('id', '=', item.authorId)
      .executeTakeFirstOrThrow();
    return { id, fileIds, revision: await raiseNewsRevision(trx), author };
  });
}

/** Why an edit was not made; thrown inside the transaction so that nothing of it stays. */
export class NewsEditRefused extends Error {
  constructor(
    readonly reason: 'gone' | 'unknown-files' | 'no-files-left' | 'too-many-files',
    readonly fileIds: number[] = [],
  ) {
    super(`news edit refused: ${reason}`);
  }
}

export interface NewNewsItem {
  authorId: number;
  title: string;
  content: string;
  createdAt: string;
  /** The author's session, when posted through it: the item is stored only while it lives. */
  sessionId?: string;
}

export interface NewsEdit {
  /** The author's session, when edited through it: the edit is made only while it lives. */
  sessionId?: string;
  title?: string;
  content?: string;
  /** Ids of the item's files to remove. */
  removeFileIds: number[];
  /** Staged files to add after the item's others. */
  addFiles: NewFile[];
  /** Most files the item may have after the edit. */
  maxFiles: number;
}

/** What an edit changed, enough to put the item back as it was (undoNewsEdit). */
export interface NewsEditDone {
  before: { title: string; content: string };
  removed: NewsFileRow[];
  addedFileIds: number[];
}

/**
 * The author's edit in one transaction: title and content, files removed and added; throws
 * NewsEditRefused (nothing changed) when the item is gone or not the author's, a file to remove is
 * not the item's, or the item would be left with no file or too many. The item's row is locked first,
 * so two edits of one item at once are made one after the other (each sees the other's files).
 */
export async function editNewsItem(db: Db, id: number, authorId: number, edit: NewsEdit): Promise<NewsEditDone> {
  return db.transaction().execute(async (trx) => {
    // The session before the item, in the order account deletion takes them (auth/account-deletion.ts):
    // the other order deadlocked against it on PostgreSQL.
    if (edit.sessionId !== undefined) await requireLiveSession(trx, edit.sessionId);
    const before = await trx
      .selectFrom('news_items')
      .select(['title', 'content'])
      .where('id', '=', id)
      .where('author_id', '=', authorId)
      .$if(isPostgres(trx), (q) => q.forUpdate())
      .executeTakeFirst();
    if (!before) throw new NewsEditRefused('gone');

    const removeIds = [...new Set(edit.removeFileIds)];
    const removed =
      removeIds.length === 0
        ? []
        : await trx
            .deleteFrom('news_files')
            .where('news_id', '=', id)
            .where('id', 'in', removeIds)
            .returningAll()
            .execute();
    if (removed.length < removeIds.length) {
      const found = new Set(removed.map((f) => f.id));
      throw new NewsEditRefused(
        'unknown-files',
        removeIds.filter((fileId) => !found.has(fileId)),
      );
    }

    const { count, last } = await trx
      .selectFrom('news_files')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max('position').as('last')])
      .where('news_id', '=', id)
      .executeTakeFirstOrThrow();
    const total = Number(count) + edit.addFiles.length;
    if (total === 0) throw new NewsEditRefused('no-files-left');
    if (total > edit.maxFiles) throw new NewsEditRefused('too-many-files');
    const addedFileIds = await insertFiles(trx, id, edit.addFiles, last === null ? 0 : Number(last) + 1);

    const changes = {
      ...(edit.title !== undefined && { title: edit.title }),
      ...(edit.content !== undefined && { content: edit.content }),
    };
    if (Object.keys(changes).length > 0)
      await trx.updateTable('news_items').set(changes).where('id', '=', id).execute();
    await raiseNewsRevision(trx);
    return { before, removed, addedFileIds };
  });
}

/** Puts an edited item back as it was (its added files could not be put in place). */
export async function undoNewsEdit(db: Db, id: number, done: NewsEditDone): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (done.addedFileIds.length > 0) await trx.deleteFrom('news_files').where('id', 'in', done.addedFileIds).execute();
    if (done.removed.length > 0) await trx.insertInto('news_files').values(done.removed).execute();
    await trx.updateTable('news_items').set(done.before).where('id', '=', id).execute();
    await raiseNewsRevision(trx);
  });
}

/**
 * Deletes an item and its file rows in one transaction (by its author when `authorId` is given) and
 * returns the storage names of its files, to be removed once this has committed; undefined when there
 * was no such item.
 */
export async function deleteNewsItem(db: Db, id: number, authorId?: number): Promise<string[] | undefined> {
  return db.transaction().execute(async (trx) => {
    // Locked first: an edit of this item under way adds its files before they are listed here.
    const item = await trx
      .selectFrom('news_items')
      .select('id')
      .where('id', '=', id)
      .$if(authorId !== undefined, (q) => q.where('author_id', '=', authorId!))
      .$if(isPostgres(trx), (q) => q.forUpdate())
      .executeTakeFirst();
    if (!item) return undefined;
    const files = await trx.deleteFrom('news_files').where('news_id', '=', id).returning('storage_name').execute();
    await trx.deleteFrom('news_items').where('id', '=', id).execute();
    await raiseNewsRevision(trx);
    return files.map((f) => f.storage_name);
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
    const rows = await db
      .selectFrom('news_files')
      .select('storage_name')
      .where('storage_name', 'in', names.slice(i, i + 500))
      .execute();
    for (const row of rows) known.add(row.storage_name);
  }
  return known;
}

/** Every item of one author with its files, newest first (the account's export). */
export async function listNewsOfAuthor(db: Db, authorId: number): Promise<NewsItemWithFiles[]> {
  const items = await itemsWithAuthor(db)
    .where('news_items.author_id', '=', authorId)
    .orderBy('news_items.created_at', 'desc')
    .orderBy('news_items.id', 'desc')
    .execute();
  const withAll: NewsItemWithFiles[] = [];
  // withFiles asks for the files of a list of items at once; a few hundred ids per statement at most.
  for (let i = 0; i < items.length; i += 500) withAll.push(...(await withFiles(db, items.slice(i, i + 500))));
  return withAll;
}

/**
 * Deletes every item of one author and their file rows, inside the caller's transaction (an account's
 * deletion); returns the files' storage names, to be removed once it has committed.
 */
export async function deleteNewsOfAuthor(trx: Db, authorId: number): Promise<string[]> {
  // Locked first, as deleteNewsItem does: an edit under way adds its files before they are listed here.
  const items = await trx
    .selectFrom('news_items')
    .select('id')
    .where('author_id', '=', authorId)
    .$if(isPostgres(trx), (q) => q.forUpdate())
    .execute();
  if (items.length === 0) return [];
  const names: string[] = [];
  for (let i = 0; i < items.length; i += 500) {
    const ids = items.slice(i, i + 500).map((item) => item.id);
    const files = await trx.deleteFrom('news_files').where('news_id', 'in', ids).returning('storage_name').execute();
    names.push(...files.map((f) => f.storage_name));
    await trx.deleteFrom('news_items').where('id', 'in', ids).execute();
  }
  await raiseNewsRevision(trx);
  return names;
}
