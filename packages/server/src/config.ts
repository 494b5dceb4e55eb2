import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse as parseConnectionString } from 'pg-connection-string';
import * as z from 'zod/mini';
import { defaultLimits } from '@hello/contract';
import { readWrittenOnce, writeOnce } from './storage/write-once.js';

/**
 * The server's whole configuration, read once at boot from the environment (every variable and its
 * default: .env.example, and the README's Configuration). Every problem is reported at once, so an
 * operator fixes the file in one go.
 *
 * zod's "mini" build: the same checks as zod with a functional API that bundles only what is used,
 * so the start-up loads and compiles far less code (docs/benchmarks.md, "Settings the figures explain").
 */
const integer = (
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  error = max === Number.MAX_SAFE_INTEGER
    ? `expected a whole number of at least ${min}`
    : `expected a whole number from ${min} to ${max}`,
) => {
  return z._default(
    z.pipe(z.coerce.number({ error }), z.int({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }))),
    fallback,
  );
};
/**
 * A token lifetime: 0 would end every token at once. The cap, 10 years, is beyond any sensible
 * lifetime and far inside the 4-digit years that stored ISO dates need to compare right as text
 * (from year 10000 they read `+010000-…`; past ~275,000 years toISOString throws).
 */
const lifetime = (fallback: number) =>
  integer(fallback, 1, 315_360_000, 'expected a whole number of seconds from 1 to 315360000 (10 years)');
const text = (fallback: string) => z._default(z.string(), fallback);
const optionalText = () => z.optional(z.string());
const rateHint = 'expected N or N/SECONDS, e.g. 10/900 (0 alone turns the limit off)';
/** `N` or `N/WINDOW_SECONDS`; 0 turns the limit off. A window of 0 would too, silently: refused. */
const rate = (max: number, windowSeconds: number) =>
  z.pipe(
    z._default(z.string(), `${max}/${windowSeconds}`),
    z.transform((value: string, ctx): RateLimit => {
      const match = /^(\d+)(?:\/(\d+))?$/.exec(value.trim());
      const limit = match && { max: Number(match[1]), windowSeconds: match[2] ? Number(match[2]) : windowSeconds };
      if (!limit || !Number.isSafeInteger(limit.max) || !Number.isSafeInteger(limit.windowSeconds))
        ctx.issues.push({ code: 'custom', message: rateHint, input: value });
      else if (limit.windowSeconds < 1)
        ctx.issues.push({ code: 'custom', message: `the window must be at least 1 second: ${rateHint}`, input: value });
      else return limit;
      return { max: 0, windowSeconds: 0 };
    }),
  );

/**
 * A variable checked by `problem` (undefined: fine; else what is wrong); the value is kept as it is.
 * The issue carries no input: a URL's password must not reach any message.
 */
const checked = (problem: (value: string) => string | undefined) =>
  z.optional(
    z.pipe(
      z.string(),
      z.transform((value: string, ctx) => {
        const message = problem(value);
        if (message !== undefined) ctx.issues.push({ code: 'custom', message, input: undefined });
        return value;
      }),
    ),
  );

/** The WHATWG parser's reading, or undefined (its error would quote the whole value, password and all). */
function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** decodeURIComponent, or undefined for a malformed %-escape. */
function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

const badEscape = 'the user or password has a malformed %-escape (write a % itself as %25)';

/** Where nodemailer is to send mail: the parts of SMTP_URL, decoded. */
export interface SmtpServer {
  host: string;
  /** Unset: nodemailer's default, 465 with smtps://, else 587. */
  port: number | undefined;
  /** smtps://: TLS from the start. */
  secure: boolean;
  auth: { user: string; pass: string } | undefined;
  /** nodemailer options given as a query, e.g. `?tls.rejectUnauthorized=false`. */
  query: [string, string][];
}

/**
 * SMTP_URL read by the WHATWG parser, or a message saying what is wrong that never quotes the value.
 * An unescaped / ? # in a password ends the host part early: what follows becomes the port (invalid)
 * or a path, query or fragment holding an `@`; all refused, as an SMTP URL has no path nor fragment.
 */
export function parseSmtpUrl(value: string): SmtpServer | string {
  if (!/^\s*smtps?:\/\//i.test(value)) return 'must start with smtp:// or smtps://';
  const url = parseUrl(value);
  if (!url || !['', '/'].includes(url.pathname) || url.hash !== '' || url.search.includes('@'))
    return 'not a valid smtp:// or smtps:// URL (a password with / ? # @ must be percent-encoded)';
  const [user, pass] = [decoded(url.username), decoded(url.password)];
  if (user === undefined || pass === undefined) return badEscape;
  if (url.hostname === '') return 'no host: expected smtp://user:pass@host:port or smtps://…';
  if (!/^([a-z0-9._-]+|\[[0-9a-f:.]+\])$/i.test(url.hostname))
    return 'the host is not a valid name or address (a password with / ? # @ must be percent-encoded)';
  if (url.port === '0') return 'the port must be from 1 to 65535';
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? undefined : Number(url.port),
    secure: url.protocol === 'smtps:',
    auth: user || pass ? { user, pass } : undefined,
    query: [...url.searchParams],
  };
}

/**
 * DATABASE_URL read as pg (pg-connection-string) reads it, or a message that never quotes the value:
 * pg would throw a bare `TypeError: Invalid URL` from deep inside the first query instead.
 */
function databaseUrlProblem(value: string): string | undefined {
  if (!/^postgres(ql)?:\/\//.test(value)) return 'must start with postgres:// (leave unset for SQLite)';
  const invalid = 'not a valid postgres:// URL (a password with / ? # @ must be percent-encoded)';
  // A `#` starts a fragment, which pg drops without a word, with the rest of the password after it;
  // a `?` before the first `@` cuts the password into a port and a query (`app:123?x@host`: host `app`).
  if (value.includes('#') || /^[^@]*\?[^@]*@/.test(value)) return invalid;
  let database: string | null | undefined;
  try {
    // pg's own reader of the URL, so what passes here is what the pool connects with
    ({ database } = parseConnectionString(value));
  } catch (error) {
    if (error instanceof URIError) return 'a malformed %-escape (write a % itself as %25)';
    // it reads the files that sslcert, sslkey and sslrootcert name
    const { syscall, code } = error as NodeJS.ErrnoException;
    if (syscall) return `a file that sslcert, sslkey or sslrootcert names cannot be read (${code})`;
    return invalid;
  }
  // `user:1234/5678@host` reads as host `user`, port 1234 and a database named `5678@host/…`
  if (database?.includes('@')) return invalid;
  return undefined;
}

/**
 * PUBLIC_URL: where the links in mails point. Links are this text with a path and `?token=` appended
 * (auth/password-reset.ts), so it may carry a path prefix (a site under a proxy's sub-path), but a
 * query or fragment would swallow the link's own path, and another scheme (`localhost:8000` reads
 * as scheme `localhost:`) is no web page.
 */
function publicUrlProblem(value: string): string | undefined {
  const example = 'expected an http:// or https:// origin, e.g. https://hello.example';
  // eslint-disable-next-line no-control-regex -- refused exactly because the URL parser drops them
  if (/[\s\x00-\x1f\x7f]/.test(value)) return `${example}, with no spaces or control characters`;
  if (!/^https?:\/\//i.test(value)) return example;
  const url = parseUrl(value);
  if (!url || url.hostname === '') return `not a valid URL: ${example}`;
  // The raw text is checked: an empty `?` or `#` is not in url.search / url.hash, yet ends up in every link.
  if (value.includes('?') || value.includes('#')) return `${example}, with no query (?) or fragment (#)`;
  if (url.username !== '' || url.password !== '') return `${example}, with no user or password`;
  return undefined;
}

const trustProxyHint =
  'expected a number of proxy hops (e.g. 1), true, false, or proxy addresses/CIDRs separated by commas ' +
  '(e.g. 10.0.0.1,10.0.0.0/8; loopback, linklocal and uniquelocal name ranges)';

/** Fastify's own reader of a trust list (a dependency of fastify's, so found from there). */
const proxyAddr = () =>
  createRequire(createRequire(import.meta.url).resolve('fastify'))('@fastify/proxy-addr') as {
    compile(list: string[]): unknown;
  };

/**
 * TRUST_PROXY as Fastify's trustProxy: unset, 0 or false: off; true: every hop; N: the first N hops;
 * else addresses, CIDRs or proxy-addr's range names, comma separated: checked here by proxy-addr,
 * which Fastify gives the list to (split at commas and trimmed, as Fastify does), so a bad one is
 * reported with every other problem instead of crashing buildApp.
 */
const trustProxy = z.optional(
  z.pipe(
    z.string(),
    z.transform((value: string, ctx): Config['trustProxy'] => {
      if (value === '0' || value === 'false') return false;
      if (value === 'true') return true;
      if (/^\d+$/.test(value)) {
        const hops = Number(value); // trust the first N proxies in front of us
        return (_address: string, hop: number) => hop < hops;
      }
      try {
        proxyAddr().compile(value.split(',').map((entry) => entry.trim()));
      } catch (error) {
        ctx.issues.push({ code: 'custom', message: `${trustProxyHint}: ${(error as Error).message}`, input: value });
      }
      return value;
    }),
  ),
);

const envSchema = z.object({
  NODE_ENV: text('development'),
  HOST: text('127.0.0.1'),
  PORT: integer(8000, 0, 65535),
  DATA_DIR: text('./data'),
  DATABASE_URL: checked(databaseUrlProblem),
  SMTP_URL: checked((value) => {
    const server = parseSmtpUrl(value);
    return typeof server === 'string' ? server : undefined;
  }),
  MAIL_FROM: text('no-reply@localhost'),
  PUBLIC_URL: checked(publicUrlProblem),
  SECRET_KEY: z.optional(z.string().check(z.minLength(32, { error: 'must be at least 32 characters' }))),
  ACCESS_TOKEN_LIFETIME: lifetime(300),
  REFRESH_TOKEN_LIFETIME: lifetime(1_209_600),
  RESET_TOKEN_LIFETIME: lifetime(3600),
  TRUST_PROXY: trustProxy,
  CORS_ORIGINS: optionalText(),
  LOG_LEVEL: z._default(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'expected one of fatal, error, warn, info, debug, trace, silent',
    }),
    'info',
  ),
  WEB_DIST_DIR: optionalText(),
  RATE_LIMIT_LOGIN: rate(10, 900),
  RATE_LIMIT_RESET: rate(5, 3600),
  RATE_LIMIT_REGISTER: rate(20, 3600),
  MAX_UPLOAD_FILE_BYTES: integer(defaultLimits.maxUploadFileBytes, 0),
  MAX_UPLOAD_FILES: integer(defaultLimits.maxUploadFiles, 0),
  MAX_BODY_BYTES: integer(defaultLimits.maxBodyBytes, 0),
  /** Unset: GET /metrics answers 404. Compared in constant time; never logged. */
  METRICS_TOKEN: z.optional(z.string().check(z.minLength(16, { error: 'must be at least 16 characters' }))),
  /** Argon2id cost; the defaults follow OWASP's password storage cheat sheet (m=19 MiB, t=2). */
  ARGON2_MEMORY_KIB: integer(19_456, 8),
  ARGON2_TIME_COST: integer(2, 1),
  /** Days ended sessions, spent reset tokens and delivered mails are kept (retention/retention-job.ts). */
  RETENTION_DAYS: integer(30, 1, 36_500),
});

/** Every variable read and checked (an empty one counts as unset); all the problems at once. */
function parseEnv(env: NodeJS.ProcessEnv) {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  return parsed.data;
}

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface Config {
  env: string;
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  secretKey: string;
  accessTokenLifetime: number;
  refreshTokenLifetime: number;
  resetTokenLifetime: number;
  /** false, true, addresses/CIDRs, or a function trusting the first N hops. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  corsOrigins: string[];
  logLevel: string;
  webDistDir: string;
  rateLimits: { login: RateLimit; reset: RateLimit; register: RateLimit };
  maxUploadFileBytes: number;
  maxUploadFiles: number;
  /** MAX_BODY_BYTES; 0 turns it off, as every limit (docs/api.md), and is kept as the largest safe integer. */
  maxBodyBytes: number;
  /** The Bearer token GET /metrics asks for; undefined: /metrics answers 404. */
  metricsToken: string | undefined;
  argon2: { memoryKiB: number; timeCost: number };
  retentionDays: number;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads `.env` (when present) under the real environment, which wins. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

// From dist/config.js, and from dist/main.bundle.js (same folder): packages/web/dist.
const defaultWebDist = () => path.resolve(import.meta.dirname, '../../web/dist');

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = parseEnv(env);
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  const config: Config = {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(
      /\/+$/,
      '',
    ),
    secretKey: e.SECRET_KEY ?? '',
    accessTokenLifetime: e.ACCESS_TOKEN_LIFETIME,
    refreshTokenLifetime: e.REFRESH_TOKEN_LIFETIME,
    resetTokenLifetime: e.RESET_TOKEN_LIFETIME,
    trustProxy: e.TRUST_PROXY ?? false,
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDist()),
    rateLimits: { login: e.RATE_LIMIT_LOGIN, reset: e.RATE_LIMIT_RESET, register: e.RATE_LIMIT_REGISTER },
    maxUploadFileBytes: e.MAX_UPLOAD_FILE_BYTES,
    maxUploadFiles: e.MAX_UPLOAD_FILES,
    maxBodyBytes: e.MAX_BODY_BYTES === 0 ? Number.MAX_SAFE_INTEGER : e.MAX_BODY_BYTES,
    metricsToken: e.METRICS_TOKEN,
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    retentionDays: e.RETENTION_DAYS,
    ...overrides,
  };
  if (!config.secretKey) config.secretKey = readOrCreateSecret(config.dataDir);
  return config;
}

/**
 * One secret per deployment, generated on first start and kept beside the data. Instances starting at
 * once on one DATA_DIR must end up with the same one, and none may read the file half-written: the
 * first to write it wins (storage/write-once.ts) and the others use theirs
 * (test/reliability/concurrent-start.test.ts).
 */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  const existing = readWrittenOnce(file);
  if (existing !== null) return checkedSecret(file, existing);
  const secret = randomBytes(48).toString('base64url');
  if (writeOnce(file, secret, 0o600)) return secret;
  return checkedSecret(file, readWrittenOnce(file) ?? '');
}

function checkedSecret(file: string, secret: string): string {
  if (secret.length < 32)
    throw new ConfigError([
      `${file}: the secret key is shorter than 32 characters (delete the file to have a new one made, or set SECRET_KEY)`,
    ]);
  return secret;
}
