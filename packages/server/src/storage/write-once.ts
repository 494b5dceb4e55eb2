import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NO_HARD_LINKS } from './no-hard-links.js';

/**
 * A small file of DATA_DIR written exactly once (secret_key, store_id), though several instances
 * may start at once on one DATA_DIR: the first to write it wins and the others read theirs.
 * Synchronous, as loadConfig is; it runs at start only.
 */

/** Times an empty file is read again, and the pause between: a second in all. */
const EMPTY_READS = 20;
const EMPTY_PAUSE_MS = 50;

/**
 * Writes `content` and a newline to `file` unless it exists: false then. Written whole and synced
 * under a name of its own, then linked into place, which fails if another's is there first: no
 * reader sees it half-written. Without hard links (vfat, many SMB mounts) it is created exclusively
 * and written at once instead, so a reader may find it empty for a moment: see readWrittenOnce.
 */
export function writeOnce(file: string, content: string, mode: number): boolean {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeSynced(temp, content, mode);
  try {
    linkSync(temp, file);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return false;
    if (!NO_HARD_LINKS.has(code ?? '')) throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  try {
    writeSynced(file, content, mode);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Creates `file` (failing if it exists) with `content` and a newline, synced. */
function writeSynced(file: string, content: string, mode: number): void {
  const fd = openSync(file, 'wx', mode);
  try {
    writeFileSync(fd, `${content}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's text, trimmed; null without the file. Empty is a file that another instance is writing
 * without a link (writeOnce): read again for a moment; still empty, '' is returned.
 */
export function readWrittenOnce(file: string): string | null {
  for (let tries = 0; ; tries += 1) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8').trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (text !== '' || tries === EMPTY_READS) return text;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, EMPTY_PAUSE_MS); // a synchronous pause
  }
}
