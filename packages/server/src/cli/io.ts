/** Where a command reads and writes: the process, or a test's buffers. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  /** Where prompts go; stderr, so stdout stays clean for scripts. */
  promptOut: NodeJS.WritableStream;
}

export const processIo = (): CliIo => ({
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  stdin: process.stdin,
  promptOut: process.stderr,
});

/** A failure the operator can fix: printed without a stack trace, with its exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/** Exit codes: 0 done, 1 failed, 2 wrong usage. */
export const usageError = (message: string) => new CliError(message, 2);
