import { constants, existsSync } from 'node:fs';
import { copyFile, link, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sqliteFile } from '../db/database.js';
import { NO_HARD_LINKS } from '../storage/no-hard-links.js';
import { CliError, usageError } from './io.js';
import type { Command } from './command.js';

/** better-sqlite3's largest step: the whole database in one step. */
const ALL_PAGES = 0x7fffffff;

/**
 * `backup FILE`: a consistent copy of the SQLite database, taken while the server runs (docs/api.md,
 * "Operating the product"), through SQLite's online backup API. FILE is never overwritten; the copy is written to
 * FILE.partial and linked to FILE once complete and checked, so an interrupted backup never leaves a
 * half file under the name asked for (where hard links cannot be made it is copied to FILE instead:
 * then only a crash during that copy could). On PostgreSQL, pg_dump is the tool.
 */
export const backupCommand: Command = {
  usage: 'backup FILE',
  summary: 'copy the SQLite database to FILE while the server runs',
  options: {},
  async run(app, { positionals }, io) {
    const [target, ...extra] = positionals;
    if (!target || extra.length > 0) throw usageError(`Usage: hello-admin ${this.usage}`);
    if (app.dialect !== 'sqlite') {
      throw new CliError(
        'backup copies an SQLite database; this server uses PostgreSQL (DATABASE_URL). Use pg_dump instead:\n' +
          '  pg_dump --format=custom "$DATABASE_URL" > backup.dump     (pg_restore puts it back)',
      );
    }
    const file = path.resolve(target);
    const refuseExisting = () => {
      if (existsSync(file))
        throw new CliError(
          `${target} exists already; backup never overwrites a file: name a new one, or remove it first.`,
        );
    };
    refuseExisting();
    const partial = `${file}.partial`;
    await rm(partial, { force: true }); // left by an interrupted backup
    try {
      io.out(`Backing up ${sqliteFile(app.config.dataDir)}…`);
      await copyDatabase(sqliteFile(app.config.dataDir), partial);
      await putInPlace(partial, file, refuseExisting);
      await syncPath(path.dirname(file));
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`Cannot back up to ${target}: ${(error as Error).message}`);
    } finally {
      await rm(partial, { force: true });
    }
    const { size } = await stat(file);
    io.out(`Backed up ${sqliteFile(app.config.dataDir)} to ${file} (${size} bytes).`);
    io.out('Copy DATA_DIR/uploads/ and DATA_DIR/pdfs/ now, after the database, and keep DATA_DIR/secret_key');
    io.out('(unless SECRET_KEY is set) with them (README, "Backups").');
  },
};

/**
 * Gives the checked copy its name. A link, unlike a rename, fails if FILE appeared while we copied,
 * rather than replace it. Where hard links cannot be made, a copy made with COPYFILE_EXCL refuses an
 * existing FILE just as well; a copy that fails halfway is removed, so no half file keeps the name.
 */
async function putInPlace(partial: string, file: string, refuseExisting: () => void): Promise<void> {
  const refuseOrThrow = (error: unknown): never => {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') refuseExisting();
    throw error;
  };
  try {
    await link(partial, file);
    return;
  } catch (error) {
    if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) refuseOrThrow(error);
  }
  await copyFile(partial, file, constants.COPYFILE_EXCL).catch(async (error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(file, { force: true });
    refuseOrThrow(error);
  });
  try {
    await syncPath(file);
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
}

/**
 * Copies `source` into `target` (a new file) while other connections, the server's, go on writing.
 * All pages are copied in one step, which reads one snapshot under one read transaction: with WAL
 * it blocks no writer, and it never restarts (smaller steps start over each time another connection
 * writes between two of them, which under steady writes may be for ever). The copy is then made a
 * plain single file (no -wal beside it), checked, and synced to disk.
 */
async function copyDatabase(source: string, target: string): Promise<void> {
  const from = new SQLite(source, { fileMustExist: true });
  try {
    from.pragma('busy_timeout = 5000');
    await from.backup(target, { progress: () => ALL_PAGES });
  } finally {
    from.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok')
      throw new CliError(`The copy fails SQLite's quick_check (${String(check)}); nothing was written under its name.`);
  } finally {
    copy.close();
  }
  await syncPath(target);
}

/** fsync: a file's bytes, or a folder's entries, are on disk. */
async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
