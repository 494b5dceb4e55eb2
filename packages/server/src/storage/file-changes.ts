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
}

/**
 * A change of rows and the files they point to, all or nothing, in one order: stage the new files
 * (done by the caller), commit, publish them, and only then remove the files the change let go.
 * A failure before the commit discards the staged files; a failure to publish undoes the commit.
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
    await files.discard(change.staged);
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
