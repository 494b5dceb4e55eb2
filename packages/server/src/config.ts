import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
  /** Argon2id cost; the defaults follow OWASP's password storage cheat sheet (m=19 MiB, t=2). */
  ARGON2_MEMORY_KIB: integer(19_456, 8),
  ARGON2_TIME_COST: integer(2, 1),
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
  argon2: { memoryKiB: number; timeCost: number };
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
    argon2: { memoryKiB: e.ARGON2_MEMORY_KIB, timeCost: e.ARGON2_TIME_COST },
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

/** One secret per deployment, generated on first start and kept beside the data. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret_key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another instance sharing this DATA_DIR wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw error;
  }
  chmodSync(file, 0o600);
  return secret;
}
