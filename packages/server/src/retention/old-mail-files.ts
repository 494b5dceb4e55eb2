import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes the `.eml` files in `dir` (mail written there when no mail server is configured,
 * mail/transport.ts) last written before `cutoff`, with any temporary file a crash left behind as
 * old. A file is written when its mail is delivered, so it goes when that mail's outbox row goes:
 * a reset or e-mail change link does not outlive the retention period on disk either. Any number of
 * instances may do it at once: a file another has removed is not counted twice.
 */
export async function removeOldMailFiles(dir: string, cutoff: Date, signal?: AbortSignal): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0; // no mail written here yet
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (signal?.aborted) break;
    if (!name.endsWith('.eml') && !/^\.[0-9a-f]+\.tmp$/.test(name)) continue;
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined); // gone meanwhile: another instance's
    if (!info?.isFile() || info.mtimeMs >= cutoff.getTime()) continue;
    try {
      await unlink(file);
      removed += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return removed;
}
