/** Where the server's log lines are written instead of stdout by pino's own JSON writer. */
export interface LogDestination {
  write(line: string): void;
}

/** The part of process.stdout the choice looks at, and writes to. */
export interface Output {
  isTTY?: boolean;
  hasColors?(): boolean;
  write(text: string): unknown;
}

/**
 * Whether the log is read by a person: stdout is a terminal (`npm start` in a shell), and the server
 * does not run as production. With NODE_ENV=production the log stays JSON even on a terminal: a
 * container started with a TTY (`docker run -t`, compose's `tty: true`) still hands its output to a
 * log collector, which expects one JSON object a line (README, "Configuration").
 */
export function logIsForAPerson(output: Output, nodeEnv: string): boolean {
  return output.isTTY === true && nodeEnv !== 'production';
}

/**
 * Where the log goes: for a person (logIsForAPerson), one readable line per event with time, level,
 * pid and message (pino-pretty); anything else (a pipe, a file, a log collector, the tests' spawned
 * servers) gets pino's JSON lines unchanged: `undefined` leaves pino's own writer in place.
 *
 * pino-pretty is loaded only then, so no other start pays for it, and it stays out of the one-file
 * bundle (scripts/bundle.mjs lists it as external). It runs as a function in this process, line by
 * line as pino writes them, not as a pino transport: those are loaded by module name in a worker
 * thread. Redaction (logger.ts) happens before a line is written, so the readable lines carry no more
 * than the JSON ones. An installation without pino-pretty logs JSON.
 */
export async function logDestination(
  output: Output = process.stdout,
  nodeEnv = process.env.NODE_ENV ?? 'development',
): Promise<LogDestination | undefined> {
  if (!logIsForAPerson(output, nodeEnv)) return undefined;
  let prettyFactory: (typeof import('pino-pretty'))['prettyFactory'];
  try {
    ({ prettyFactory } = await import('pino-pretty'));
  } catch {
    output.write('pino-pretty is not installed: the log is written as JSON lines.\n');
    return undefined;
  }
  const prettify = prettyFactory({
    colorize: output.hasColors?.() ?? false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'hostname',
  });
  return { write: (line) => void output.write(prettify(line)) };
}
