import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Given storage names, resolves the subset that has a database row. */
export type KnownNames = (names: string[]) => Promise<Set<string>>;

/**
 * Files under names the server chooses, written in two steps so a file and its database row appear
 * together or not at all: a file is written under `.tmp/<instance>/` (stage), its row committed, and only
 * then moved into place (publish). A crash leaves, at worst, staged files of a dead instance; the sweep
 * publishes those whose row was committed and deletes the rest, and deletes any published file with no row.
 * Each instance stages in its own folder, so instances sharing a DATA_DIR never sweep each other's work.
 */
export class StagedFileStore {
  readonly tmpRoot: string;
  readonly stagingDir: string;
  private readonly instance = `${process.pid}.${randomBytes(4).toString('hex')}@${hostname()}`;

  constructor(readonly dir: string) {
    this.tmpRoot = path.join(dir, '.tmp');
    this.stagingDir = path.join(this.tmpRoot, this.instance);
  }

  /** 128 random bits: unguessable, and never derived from anything a client sent. */
  static newName(extension = ''): string {
    return randomBytes(16).toString('hex') + extension;
  }

  finalPath(name: string): string {
    return path.join(this.dir, name);
  }

  stagedPath(name: string): string {
    return path.join(this.stagingDir, name);
  }

  /** Streams `source` into a staged file and syncs it to disk; removes the partial file on failure. */
  async stage(name: string, source: Readable | Iterable<Uint8Array> | AsyncIterable<Uint8Array>): Promise<void> {
    await mkdir(this.stagingDir, { recursive: true }); // cheap when present; recreates a swept folder
    const target = this.stagedPath(name);
    try {
      await pipeline(source, createWriteStream(target, { flags: 'wx' }));
      await syncFile(target);
    } catch (error) {
      await unlink(target).catch(() => {});
      throw error;
    }
  }

  /** Moves committed files into place (rename: atomic within the folder) and syncs the folder entry. */
  async publish(names: string[]): Promise<void> {
    for (const name of names) await rename(this.stagedPath(name), this.finalPath(name));
    if (names.length > 0) await syncFile(this.dir);
  }

  /** Removes files wherever they are (staged or published); missing files are fine. */
  async discard(names: string[]): Promise<void> {
    await Promise.all(names.flatMap((name) => [rm(this.stagedPath(name), { force: true }), rm(this.finalPath(name), { force: true })]));
  }

  /** Start-up clean-up; see the class comment. Returns how many files it removed and published. */
  async sweep(known: KnownNames): Promise<{ removed: number; published: number }> {
    await mkdir(this.dir, { recursive: true });
    let removed = 0;
    let published = 0;
    for (const entry of await readdir(this.tmpRoot, { withFileTypes: true }).catch(() => [])) {
      const folder = path.join(this.tmpRoot, entry.name);
      if (!entry.isDirectory()) {
        await rm(folder, { force: true });
        continue;
      }
      if (!(await this.isAbandoned(entry.name, folder))) continue;
      // Another instance starting now may sweep the same folder: what it moved first is simply gone.
      const names = await readdir(folder).catch(() => [] as string[]);
      const committed = await known(names);
      for (const name of names) {
        if (committed.has(name)) {
          if (await rename(path.join(folder, name), this.finalPath(name)).then(() => true, ignoreMissing)) published += 1;
        } else {
          await rm(path.join(folder, name), { force: true });
          removed += 1;
        }
      }
      await rm(folder, { recursive: true, force: true });
    }
    // Listed before the rows are read: a file published after this listing already had its row.
    const finals = (await readdir(this.dir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
    const committed = await known(finals);
    for (const name of finals) {
      if (!committed.has(name)) {
        await rm(this.finalPath(name), { force: true });
        removed += 1;
      }
    }
    return { removed, published };
  }

  /** A staging folder whose process is gone: ours by host and pid, or untouched for a day elsewhere. */
  private async isAbandoned(name: string, folder: string): Promise<boolean> {
    if (name === this.instance) return false;
    const match = /^(\d+)\.[0-9a-f]+@(.+)$/.exec(name);
    const { mtimeMs } = await stat(folder);
    if (match && match[2] === hostname()) {
      const pid = Number(match[1]);
      // Our pid: a previous process that had it (touched before we started), or another app in this one.
      if (pid === process.pid) return mtimeMs < Date.now() - process.uptime() * 1000;
      return !isAlive(pid);
    }
    return Date.now() - mtimeMs > 24 * 3600 * 1000;
  }
}

function ignoreMissing(error: NodeJS.ErrnoException): false {
  if (error.code === 'ENOENT') return false;
  throw error;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** fsync: the data (or a folder's entries) is on disk before we answer success. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
