import { existsSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { ConfigError } from '../config.js';
import { sqliteFile } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { ifMissing } from './staged-files.js';
import { readWrittenOnce, writeOnce } from './write-once.js';

/** In DATA_DIR: the id of the database this DATA_DIR's files belong to. */
export const STORE_ID_FILE = 'store_id';

/**
 * Ties DATA_DIR to its database before anything touches a file. At start the server deletes every
 * file of `uploads/` and `pdfs/` that no row names (the start-up sweep), so a start on the wrong
 * database (a DATABASE_URL missing from an operator's shell, which makes a new SQLite file, or
 * another deployment's PostgreSQL) would delete them all. The database names itself with a random
 * id (migration 008) that `DATA_DIR/store_id` repeats; when they differ the start stops with an error.
 * A DATA_DIR without the file (a new one, or one of a version before this check) is bound to the
 * database it meets, unless it holds files and the database names none: then it is another
 * database's too (an old DATA_DIR met by a new database), since from this check on a DATA_DIR gets
 * its file before its first stored file.
 */
export async function checkStoreIdentity(db: Kysely<Database>, dataDir: string): Promise<void> {
  const { store_id: databaseId } = await db
    .selectFrom('store_identity')
    .select('store_id')
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  const file = path.join(dataDir, STORE_ID_FILE);
  const dataDirId = readWrittenOnce(file);
  if (dataDirId === databaseId) return;
  if (dataDirId !== null) throw mismatch(dataDir, `it was last used with a database whose id is ${dataDirId}`);
  if ((await holdsFiles(dataDir)) && !(await namesAnyFile(db))) {
    throw new ConfigError([
      `DATA_DIR (${dataDir}) holds uploads or PDFs and this database names none of them: started, the ` +
        'server would delete them all. Check DATABASE_URL and DATA_DIR. If the files are leftovers, ' +
        'move uploads/ and pdfs/ out of DATA_DIR and start again.',
    ]);
  }
  // Two instances starting at once on a new DATA_DIR write the same id: the second finds it there.
  if (!writeOnce(file, databaseId, 0o644) && readWrittenOnce(file) !== databaseId)
    throw mismatch(dataDir, 'another instance bound it to another database just now');
}

/**
 * Before SQLite opens DATA_DIR/app.db (which it would create): a DATA_DIR bound to a database whose
 * app.db is missing is refused before an empty one is made, most often a PostgreSQL deployment's
 * DATA_DIR started without its DATABASE_URL.
 */
export function refuseNewSqliteOnBoundDataDir(dataDir: string): void {
  if (existsSync(sqliteFile(dataDir)) || !existsSync(path.join(dataDir, STORE_ID_FILE))) return;
  throw new ConfigError([
    `DATA_DIR (${dataDir}) belongs to a database (DATA_DIR/${STORE_ID_FILE}) but holds no app.db, and ` +
      'DATABASE_URL is not set: started, the server would make a new, empty SQLite database. If this ' +
      'deployment runs on PostgreSQL, set DATABASE_URL; if app.db was lost, restore it from a backup.',
  ]);
}

function mismatch(dataDir: string, why: string): ConfigError {
  return new ConfigError([
    `DATA_DIR (${dataDir}) does not belong to this database: ${why}. Started anyway, the server would ` +
      'delete the files that this database does not name. Check DATABASE_URL and DATA_DIR. If this ' +
      `database is the right one (restored from a backup older than ${STORE_ID_FILE}), remove ` +
      `DATA_DIR/${STORE_ID_FILE} and start again.`,
  ]);
}

async function holdsFiles(dataDir: string): Promise<boolean> {
  for (const folder of ['uploads', 'pdfs']) {
    const dir = await opendir(path.join(dataDir, folder)).catch(ifMissing(null));
    if (!dir) continue;
    for await (const entry of dir) if (entry.isFile()) return true; // leaving the loop closes it
  }
  return false;
}

async function namesAnyFile(db: Kysely<Database>): Promise<boolean> {
  const [file, pdf] = await Promise.all([
    db.selectFrom('news_files').select('id').limit(1).executeTakeFirst(),
    db.selectFrom('pdfs').select('id').limit(1).executeTakeFirst(),
  ]);
  return file !== undefined || pdf !== undefined;
}
