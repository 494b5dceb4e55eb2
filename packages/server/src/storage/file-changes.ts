/** The two steps of StagedFileStore (staged-files.ts) a change of stored files goes through. */
export interface FileSteps {
  publish(names: string[]): Promise<void>;
  discard(names: string[]): Promise<void>;
}

export interface FileChange<T> {
  /** Files the change adds, staged already. */
  staged: string[];
  /** The database change, one transaction. */
  commit(): Promise<T>;
  /** Files the committed change no longer refers to. */
  removed?(result: T): string[];
  /** Puts the database back as it was before `commit`, when the staged files cannot be put in place. */
  undo?(result: T): Promise<void>;
  /**
   * For a `commit` that failed in a way that may have committed all the same (PostgreSQL: its answer
   * timed out, its connection was lost): the staged files whose rows exist. Without it, or for any
   * other failure, a failed commit committed nothing.
   */
  rowsAfter?(error: unknown): ((staged: string[]) => Promise<Set<string>>) | undefined;
}

/** After a commit of unknown outcome, when its files' rows are looked for: its COMMIT may still be running. */
const SETTLE_AFTER_MS = [2_000, 10_000, 60_000, 600_000];

/**
 * A change of rows and the files they point to, all or nothing, in one order: stage the new files
 * (done by the caller), commit, publish them, and only then remove the files the change let go.
 * A failure before the commit discards the staged files, unless the commit may have gone through
 * all the same (see settleLater); a failure to publish undoes the commit.
 * A crash at any step leaves what the start-up sweep puts right (staged-files.ts): staged files are
 * published if their rows committed and deleted if not; a published file with no row is deleted.
 * So no row ever points at a missing file, and no file outlives its row for longer than a restart.
 */
export async function changeWithFiles<T>(
  files: FileSteps,
  change: FileChange<T>,
  onLeftover: (error: unknown) => void = () => {},
): Promise<T> {
  let result: T;
  try {
    result = await change.commit();
  } catch (error) {
    const rowsOf = change.staged.length > 0 ? change.rowsAfter?.(error) : undefined;
    if (rowsOf) settleLater(files, change.staged, rowsOf, onLeftover);
    else await files.discard(change.staged);
    throw error;
  }
  try {
    await files.publish(change.staged);
  } catch (error) {
    await change.undo?.(result);
    await files.discard(change.staged);
    throw error;
  }
  // Committed: the answer is success whatever happens now. A file that cannot be removed is an
  // orphan the next start-up sweep removes.
  await files.discard(change.removed?.(result) ?? []).catch(onLeftover);
  return result;
}

/**
 * The staged files of a commit that failed but may have committed (the answer to it timed out, say,
 * while the server went on): the rows decide, as in the start-up sweep, once the COMMIT has had time
 * to end. Files with rows are put in place as soon as the rows are seen; with none at the last look,
 * the files are discarded. Meanwhile the call has answered its failure. A crash before the last look
 * leaves them to the start-up sweep, which decides the same way.
 */
function settleLater(
  files: FileSteps,
  staged: string[],
  rowsOf: (staged: string[]) => Promise<Set<string>>,
  onLeftover: (error: unknown) => void,
  look = 0,
): void {
  const last = look === SETTLE_AFTER_MS.length - 1;
  const settle = async () => {
    const rows = await rowsOf(staged).catch((error: unknown) => (last ? Promise.reject(error) : undefined));
    if (!rows || (rows.size === 0 && !last)) return settleLater(files, staged, rowsOf, onLeftover, look + 1);
    await files.publish(staged.filter((name) => rows.has(name)));
    await files.discard(staged.filter((name) => !rows.has(name)));
  };
  setTimeout(() => void settle().catch(onLeftover), SETTLE_AFTER_MS[look]).unref();
}
