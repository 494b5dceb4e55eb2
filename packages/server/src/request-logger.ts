import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];
type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The server's logger as this module uses it: pino's, which can tell its levels and its bindings. */
interface PinoLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
  bindings(): Bindings;
  flush(callback?: (error?: Error) => void): void;
  readonly levels: { values: Record<string, number>; labels: Record<number, string> };
  readonly levelVal: number;
  child(bindings: Bindings, options?: ChildOptions): PinoLogger;
}

/**
 * Fastify gives every request a child of the server's logger that carries the request's id. Making
 * it (pino's `child`) costs the JSON reads about a microsecond each (docs/benchmarks.md, "each
 * request's logger made when it first writes"). At `LOG_LEVEL=warn` and above most requests write no
 * line, so this factory defers the child until one does. At `info` and below Fastify logs every
 * request's start and end, so each request needs its child at once; and with logging off Fastify
 * makes none. In both, Fastify's own factory is kept (undefined here), which also spares the check
 * Fastify makes of any other factory's logger.
 */
export function requestLoggerFactory(level: string): FastifyServerOptions['childLoggerFactory'] {
  return ['fatal', 'error', 'warn'].includes(level) ? deferredChild : undefined;
}

const deferredChild: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) => {
  // A route's own level (other than the server's: /healthz and /readyz name `warn`) or serializers,
  // or a logger that cannot tell its level: made at once.
  const ownLevel = options.level !== undefined && options.level !== logger.level;
  if (ownLevel || options.serializers !== undefined || !canTellLevels(logger)) {
    return logger.child(bindings, options);
  }
  return new DeferredChildLogger(logger, bindings);
};

function canTellLevels(logger: FastifyBaseLogger): logger is PinoLogger {
  return typeof (logger as Partial<PinoLogger>).isLevelEnabled === 'function';
}

/**
 * Writes through the child made on the first line the server would write; until then a call at a
 * level the server does not log does nothing, as pino's own method would. What else a caller may ask
 * of pino's child (its level, bindings, children, flush) it answers as that child would.
 */
export class DeferredChildLogger implements FastifyBaseLogger {
  readonly #parent: PinoLogger;
  readonly #bindings: Bindings;
  #child: PinoLogger | undefined;

  constructor(parent: PinoLogger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  /** The child, made now if it was not yet. */
  #made(): PinoLogger {
    return (this.#child ??= this.#parent.child(this.#bindings));
  }

  #write(level: Level, args: unknown[]): void {
    const log = this.#child ?? (this.#parent.isLevelEnabled(level) ? this.#made() : undefined);
    if (log) (log[level] as (...a: unknown[]) => void).apply(log, args);
  }

  get level(): string {
    return (this.#child ?? this.#parent).level;
  }

  /** A level set on one request's logger is that request's alone, as on pino's child. */
  set level(level: string) {
    this.#made().level = level;
  }

  get levelVal(): number {
    return (this.#child ?? this.#parent).levelVal;
  }

  get levels(): PinoLogger['levels'] {
    return this.#parent.levels;
  }

  isLevelEnabled(level: string): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.#made().bindings();
  }

  flush(callback?: (error?: Error) => void): void {
    this.#parent.flush(callback);
  }

  // Methods on the prototype, not closures per instance: one object is all a request pays for.
  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#made().child(bindings, options);
  }
}
