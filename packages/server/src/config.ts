import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import * as z from 'zod/mini';
import { defaultLimits } from '@hello/contract';

/**
 * The server's whole configuration, read once at boot from the environment (every variable and its
 * default: .env.example, and the README's Configuration). Every problem is reported at once, so an
 * operator fixes the file in one go.
 *
 * zod's "mini" build: the same checks as zod with a functional API that bundles only what is used,
 * so the start-up loads and compiles far less code (docs/benchmarks.md, "Settings the figures explain").
 */
const integer = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER) => {
  const error =
    max === Number.MAX_SAFE_INTEGER
      ? `expected a whole number of at least ${min}`
      : `expected a whole number from ${min} to ${max}`;
  return z._default(
    z.pipe(z.coerce.number({ error }), z.int({ error }).check(z.minimum(min, { error }), z.maximum(max, { error }))),
    fallback,
  );
};
const seconds = (fallback: number) => integer(fallback, 0);
const text = (fallback: string) => z._default(z.string(), fallback);
const optionalText = () => z.optional(z.string());
const matching = (pattern: RegExp, error: string) => z.optional(z.string().check(z.regex(pattern, { error })));
/** `N` or `N/WINDOW_SECONDS`; 0 turns the limit off. */
const rate = (max: number, windowSeconds: number) =>
  z.pipe(
    z._default(z.string(), `${max}/${windowSeconds}`),
    z.transform((value: string, ctx): RateLimit => {
      const match = /^(\d+)(?:\/(\d+))?$/.exec(value.trim());
      if (!match) {
        ctx.issues.push({ code: 'custom', message: 'expected N or N/SECONDS, e.g. 10/900', input: value });
        return { max: 0, windowSeconds: 0 };
      }
      return { max: Number(match[1]), windowSeconds: match[2] ? Number(match[2]) : windowSeconds };
    }),
  );

const envSchema = z.object({
  NODE_ENV: text('development'),
  HOST: text('127.0.0.1'),
  PORT: integer(8000, 0, 65535),
  DATA_DIR: text('./data'),
  DATABASE_URL: matching(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave unset for SQLite)'),
  SMTP_URL: matching(/^smtps?:\/\//, 'must start with smtp:// or smtps://'),
  MAIL_FROM: text('no-reply@localhost'),
  PUBLIC_URL: z.optional(z.url({ error: 'expected an absolute URL, e.g. https://hello.example' })),
  SECRET_KEY: z.optional(z.string().check(z.minLength(32, { error: 'must be at least 32 characters' }))),
  ACCESS_TOKEN_LIFETIME: seconds(300),
  REFRESH_TOKEN_LIFETIME: seconds(1_209_600),
  RESET_TOKEN_LIFETIME: seconds(3600),
  TRUST_PROXY: optionalText(),
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
  MAX_BODY_BYTES: integer(defaultLimits.maxBodyBytes, 1),
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
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: (e.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    logLevel: e.LOG_LEVEL,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? defaultWebDist()),
    rateLimits: { login: e.RATE_LIMIT_LOGIN, reset: e.RATE_LIMIT_RESET, register: e.RATE_LIMIT_REGISTER },
    maxUploadFileBytes: e.MAX_UPLOAD_FILE_BYTES,
    maxUploadFiles: e.MAX_UPLOAD_FILES,
    maxBodyBytes: e.MAX_BODY_BYTES,
    metricsToken: e.METRICS_TOKEN,
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
    retentionDays: e.RETENTION_DAYS,
    ...overrides,
  };
  if (!config.secretKey) config.secretKey = readOrCreateSecret(config.dataDir);
  return config;
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value); // trust the first N proxies in front of us
    return (_address: string, hop: number) => hop < hops;
  }
  return value; // addresses or CIDRs, comma separated
}

/**
 * One secret per deployment, generated on first start and kept beside the data. Instances starting at
 * once on one DATA_DIR must end up with the same one, and none may read the file half-written: it is
 * written whole and synced under a name of its own, then linked into place, which fails if another
 * instance's is there first; then theirs is used (test/reliability/concurrent-start.test.ts).
 */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readSecret(file);
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeFileSync(fd, `${secret}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readSecret(file);
    throw error;
  } finally {
    rmSync(temp, { force: true });
  }
  return secret;
}

function readSecret(file: string): string {
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new ConfigError([
      `${file}: the secret key is shorter than 32 characters (delete the file to have a new one made, or set SECRET_KEY)`,
    ]);
  return secret;
}
