import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultLimits } from '@hello/contract';

/**
 * The server's whole configuration, read once at boot from the environment (CONTRACT.md, section 1).
 * Every problem is reported at once, so an operator fixes the file in one go.
 *
 * Checked by hand rather than with zod: these few rules do not need a library that takes a tenth of
 * the server's start-up to load.
 */
class Problem {
  constructor(readonly message: string) {}
}
const fail = (message: string): never => {
  throw new Problem(message);
};

/** A variable's value, `undefined` when it is unset or empty. */
type Field<T> = (value: string | undefined) => T;

const text = (fallback: string): Field<string> => (value) => value ?? fallback;
const optional: Field<string | undefined> = (value) => value;
const matching = (pattern: RegExp, message: string): Field<string | undefined> => (value) =>
  value === undefined || pattern.test(value) ? value : fail(message);
/** A whole number as `Number()` reads it (` 8000 `, `8e3`), within bounds. */
const integer = (fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): Field<number> => (value) => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (Number.isSafeInteger(number) && number >= min && number <= max) return number;
  return fail(max === Number.MAX_SAFE_INTEGER ? `expected a whole number of at least ${min}` : `expected a whole number from ${min} to ${max}`);
};
const seconds = (fallback: number) => integer(fallback, 0);
const oneOf = <T extends string>(choices: readonly T[], fallback: T): Field<T> => (value) =>
  value === undefined ? fallback : choices.includes(value as T) ? (value as T) : fail(`expected one of ${choices.join(', ')}`);
/** An absolute URL, trimmed (tabs and line breaks inside it dropped, as a URL parser does). */
const url: Field<string | undefined> = (value) => {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return URL.canParse(trimmed) ? trimmed.replace(/[\t\n\r]/g, '') : fail('expected an absolute URL, e.g. https://hello.example');
};
/** `N` or `N/WINDOW_SECONDS`; 0 turns the limit off. */
const rate = (max: number, windowSeconds: number): Field<RateLimit> => (value = `${max}/${windowSeconds}`) => {
  const match = /^(\d+)(?:\/(\d+))?$/.exec(value.trim());
  if (!match) return fail('expected N or N/SECONDS, e.g. 10/900');
  return { max: Number(match[1]), windowSeconds: match[2] ? Number(match[2]) : windowSeconds };
};

const envSchema = {
  NODE_ENV: text('development'),
  HOST: text('127.0.0.1'),
  PORT: integer(8000, 0, 65535),
  DATA_DIR: text('./data'),
  DATABASE_URL: matching(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave unset for SQLite)'),
  SMTP_URL: matching(/^smtps?:\/\//, 'must start with smtp:// or smtps://'),
  MAIL_FROM: text('no-reply@localhost'),
  PUBLIC_URL: url,
  SECRET_KEY: (value: string | undefined) => (value === undefined || value.length >= 32 ? value : fail('must be at least 32 characters')),
  ACCESS_TOKEN_LIFETIME: seconds(300),
  REFRESH_TOKEN_LIFETIME: seconds(1_209_600),
  RESET_TOKEN_LIFETIME: seconds(3600),
  TRUST_PROXY: optional,
  CORS_ORIGINS: optional,
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  WEB_DIST_DIR: optional,
  RATE_LIMIT_LOGIN: rate(10, 900),
  RATE_LIMIT_RESET: rate(5, 3600),
  RATE_LIMIT_REGISTER: rate(20, 3600),
  MAX_UPLOAD_FILE_BYTES: integer(defaultLimits.maxUploadFileBytes, 0),
  MAX_UPLOAD_FILES: integer(defaultLimits.maxUploadFiles, 0),
  MAX_BODY_BYTES: integer(defaultLimits.maxBodyBytes, 1),
  /** Argon2id cost; the defaults follow OWASP's password storage cheat sheet (m=19 MiB, t=2). */
  ARGON2_MEMORY_KIB: integer(19_456, 8),
  ARGON2_TIME_COST: integer(2, 1),
};

type Env = { [K in keyof typeof envSchema]: ReturnType<(typeof envSchema)[K]> };

/** Every variable read and checked; all the problems at once. */
function parseEnv(env: NodeJS.ProcessEnv): Env {
  const parsed: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [name, field] of Object.entries(envSchema) as [string, Field<unknown>][]) {
    const value = env[name];
    try {
      parsed[name] = field(value === '' ? undefined : value);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return parsed as Env;
}

export interface RateLimit { max: number; windowSeconds: number }

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
    publicUrl: (e.PUBLIC_URL ?? `http://${e.HOST.includes(':') ? `[${e.HOST}]` : e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    secretKey: e.SECRET_KEY ?? '',
    accessTokenLifetime: e.ACCESS_TOKEN_LIFETIME,
    refreshTokenLifetime: e.REFRESH_TOKEN_LIFETIME,
    resetTokenLifetime: e.RESET_TOKEN_LIFETIME,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    corsOrigins: (e.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
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
