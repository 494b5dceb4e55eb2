import { randomBytes } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { mkdir, open, opendir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Published files whose rows are looked up at once by the start-up sweep. */
const SWEEP_BATCH = 500;

/**
 * This process's host as staging folders name it: the host name and, on Linux, the pid namespace.
 * Containers sharing a host name (host networking) count pids each on their own: without it, one
 * would take a live neighbour's folder for a dead process's and delete its uploads in flight.
 */
export const stagingHost: string = (() => {
  try {
    const namespace = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
    return namespace ? `${hostname()}~${namespace}` : hostname();
  } catch {
    return hostname(); // not Linux, or /proc hidden: the host name alone
  }
})();

/** Given storage names, resolves the subset that has a database row. */
export type KnownNames = (names: string[]) => Promise<Set<string>>;

/**
 * Files under names the server chooses, written in two steps so a file and its database row appear
 * together or not at all: a file is written under `.tmp/<instance>/` (stage), its row committed, and only
 * then moved into place (publish). A crash leaves, at worst, staged files of a dead instance; the sweep
 * publishes those whose row was committed and deletes the rest, and deletes any published file with no row.
 * Each instance stages in its own folder, so instances sharing a DATA_DIR never remove each other's work.
 * A committed file is published from any folder, even one whose instance may be alive: a container
 * restarted under a new host name cannot tell its previous life's folder from a live neighbour's, and
 * a committed row must not wait a day for its file. A live instance's own publish then finds it done.
 */
export class StagedFileStore {
  readonly tmpRoot: string;
  readonly stagingDir: string;
  private readonly instance = `${process.pid}.${randomBytes(4).toString('hex')}@${stagingHost}`;

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
    // Opened before the bytes flow: a write stream opening by itself could create the file after a source
    // that failed at once had had it unlinked, leaving an empty file behind (test/unit/storage.test.ts).
    const file = await open(target, 'wx');
    try {
      await pipeline(source, file.createWriteStream()); // the stream closes `file`, whether it ends or fails
      await syncFile(target);
    } catch (error) {
      await unlink(target).catch(() => {});
      throw error;
    }
  }

  /** Moves committed files into place (rename: atomic within the folder) and syncs the folder entry. */
  async publish(names: string[]): Promise<void> {
    for (const name of names) {
      await rename(this.stagedPath(name), this.finalPath(name)).catch(async (error: NodeJS.ErrnoException) => {
        // moved already by another instance's start-up sweep (see the class comment)
        if (error.code !== 'ENOENT' || !(await stat(this.finalPath(name)).catch(ifMissing(undefined)))) throw error;
      });
    }
    if (names.length > 0) await syncFile(this.dir);
  }

  /** Removes files wherever they are (staged or published); missing files are fine. */
  async discard(names: string[]): Promise<void> {
    await Promise.all(
      names.flatMap((name) => [rm(this.stagedPath(name), { force: true }), rm(this.finalPath(name), { force: true })]),
    );
  }

  /**
   * Start-up clean-up; see the class comment. Returns how many files it removed and published.
   * Instances starting at the same moment on one DATA_DIR sweep the same dead folders: any file or
   * folder may be gone (moved or removed by the other) between two steps, and that is no failure
   * (test/reliability/concurrent-start.test.ts).
   */
  async sweep(known: KnownNames): Promise<{ removed: number; published: number }> {
    await mkdir(this.dir, { recursive: true });
    let removed = 0;
    let published = 0;
    for (const entry of await readdir(this.tmpRoot, { withFileTypes: true }).catch(ifMissing([]))) {
      const folder = path.join(this.tmpRoot, entry.name);
      if (!entry.isDirectory()) {
        await rm(folder, { force: true });
        continue;
      }
      if (entry.name === this.instance) continue;
      const abandoned = await this.isAbandoned(entry.name, folder);
      const names = await readdir(folder).catch(ifMissing([] as string[]));
      const committed = await known(names);
      for (const name of names) {
        if (committed.has(name)) {
          if (await rename(path.join(folder, name), this.finalPath(name)).then(() => true, ifMissing(false)))
            published += 1;
        } else if (abandoned) {
          await rm(path.join(folder, name), { force: true });
          removed += 1;
        } // else perhaps an upload in flight, its row not yet committed: left to its instance
      }
      if (abandoned) await rm(folder, { recursive: true, force: true }); // force: gone already is fine
    }
    // Read a batch at a time, so that a store of 200,000 files costs no more memory than one of 20.
    // Each batch is listed before its rows are read: a file published after that already had its row.
    const batch: string[] = [];
    const sweepBatch = async () => {
      const committed = await known(batch);
      for (const name of batch) {
        if (!committed.has(name)) {
          await rm(this.finalPath(name), { force: true });
          removed += 1;
        }
      }
      batch.length = 0;
    };
    for await (const entry of await opendir(this.dir)) {
      if (!entry.isFile()) continue;
      batch.push(entry.name);
      if (batch.length === SWEEP_BATCH) await sweepBatch();
    }
    await sweepBatch();
    return { removed, published };
  }

  /** A staging folder whose process is gone: ours by host (and pid namespace) and pid, or untouched for a day elsewhere. */
  private async isAbandoned(name: string, folder: string): Promise<boolean> {
    const match = /^(\d+)\.[0-9a-f]+@(.+)$/.exec(name);
    const stats = await stat(folder).catch(ifMissing(undefined));
    if (!stats) return false; // swept by another instance meanwhile: nothing left to do
    const { mtimeMs } = stats;
    if (match && match[2] === stagingHost) {
      const pid = Number(match[1]);
      // Our pid: a previous process that had it (touched before we started), or another app in this one.
      if (pid === process.pid) return mtimeMs < Date.now() - process.uptime() * 1000;
      return !isAlive(pid);
    }
    return Date.now() - mtimeMs > 24 * 3600 * 1000;
  }
}

/** A rejection handler: `fallback` when the file or folder is not there (ENOENT), else the error. */
export function ifMissing<T>(fallback: T): (error: NodeJS.ErrnoException) => T {
  return (error) => {
    if (error.code === 'ENOENT') return fallback;
    throw error;
  };
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
