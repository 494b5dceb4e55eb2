import type { FastifyBaseLogger } from 'fastify';

/** A log line as a recording logger keeps it: its level and the arguments it was called with. */
export interface LogLine {
  level: string;
  args: unknown[];
}

/** A logger (and its children) that keeps every line in `lines`, for a test to look at. */
export function recordingLog(): { log: FastifyBaseLogger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logAt =
    (level: string) =>
    (...args: unknown[]) =>
      void lines.push({ level, args });
  const log = {
    ...Object.fromEntries(['trace', 'debug', 'info', 'warn', 'error', 'fatal'].map((l) => [l, logAt(l)])),
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}
