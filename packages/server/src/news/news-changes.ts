import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { lostInFlight } from '../db/database.js';
import {
  deleteNewsItem,
  editNewsItem,
  insertNewsItem,
  knownUploadNames,
  undoNewsEdit,
  type NewFile,
  type NewNewsItem,
  type NewsEdit,
  type NewsEditDone,
} from '../repositories/news.js';
import { changeWithFiles, type FileSteps } from '../storage/file-changes.js';

/** An item as its creation stored it: its id, its files' ids in the order given, the list's new revision. */
export type StoredNewsItem = Awaited<ReturnType<typeof insertNewsItem>>;

/** What a change of news needs: the database, the attachments' store, and where to report leftovers. */
export interface NewsDeps {
  db: Kysely<Database>;
  uploads: FileSteps;
  log: { warn(details: object, message: string): void };
}

const leftover = (deps: NewsDeps) => (error: unknown) =>
  deps.log.warn({ err: error }, 'attachments stay on disk as they are until the next start-up sweep');

/** The rows of the staged files, looked for when a commit failed but may have gone through. */
const rowsAfter = (deps: NewsDeps) => (error: unknown) =>
  lostInFlight(error) ? (names: string[]) => knownUploadNames(deps.db, names) : undefined;

/**
 * Every change of a news item with its files goes through changeWithFiles: all or nothing, files
 * removed only after the commit (the HTTP calls and the operators' `news delete` alike).
 */
export function createNewsItem(
  deps: NewsDeps,
  item: NewNewsItem,
  files: NewFile[],
  /** Told of the stored item as soon as it has committed, before its files are put in place. */
  onCommit?: (stored: StoredNewsItem) => void,
) {
  return changeWithFiles(
    deps.uploads,
    {
      staged: files.map((f) => f.storageName),
      commit: async () => {
        const stored = await insertNewsItem(deps.db, item, files);
        // Committed: nothing may now fail the change as if it had not been made.
        try {
          onCommit?.(stored);
        } catch (error) {
          deps.log.warn({ err: error }, 'a news item was stored, but telling the kept news list failed');
        }
        return stored;
      },
      // The item must not outlive its files.
      undo: async ({ id }) => void (await deleteNewsItem(deps.db, id)),
      rowsAfter: rowsAfter(deps),
    },
    leftover(deps),
  );
}

/** The author's edit (repositories/news.ts, editNewsItem); throws NewsEditRefused when it is not made. */
export function editNewsItemWithFiles(
  deps: NewsDeps,
  id: number,
  authorId: number,
  edit: NewsEdit,
): Promise<NewsEditDone> {
  return changeWithFiles(
    deps.uploads,
    {
      staged: edit.addFiles.map((f) => f.storageName),
      commit: () => editNewsItem(deps.db, id, authorId, edit),
      removed: (done) => done.removed.map((f) => f.storage_name),
      undo: (done) => undoNewsEdit(deps.db, id, done),
      rowsAfter: rowsAfter(deps),
    },
    leftover(deps),
  );
}

/** Deletes an item (its author's, when `authorId` is given); false when there was no such item. */
export async function deleteNewsItemWithFiles(deps: NewsDeps, id: number, authorId?: number): Promise<boolean> {
  const removed = await changeWithFiles(
    deps.uploads,
    { staged: [], commit: () => deleteNewsItem(deps.db, id, authorId), removed: (names) => names ?? [] },
    leftover(deps),
  );
  return removed !== undefined;
}
