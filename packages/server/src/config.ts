import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { defaultLimits } from '@hello/contract';

/**
 * The server's whole configuration, read once at boot from the environment (CONTRACT.md, section 1).
 * Every problem is reported at once, so an operator fixes the file in one go.
 */
const seconds = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
/** `N` or `N/WINDOW_SECONDS`; 0 turns the limit off. */
const rate = (max: number, windowSeconds: number) =>
  z
    .string()
    .default(`${max}/${windowSeconds}`)
    .transform((value, ctx) => {
      const match = /^(\d+)(?:\/(\d+))?$/.exec(value.trim());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: 'expected N or N/SECONDS, e.g. 10/900' });
        return z.NEVER;
      }
      return { max: Number(match[1]), windowSeconds: match[2] ? Number(match[2]) : windowSeconds };
    });

const envSchema = z.object({
  NODE_ENV: z.string().default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// (leave unset for SQLite)')
    .optional(),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://').optional(),
  MAIL_FROM: z.string().default('no-reply@localhost'),
  PUBLIC_URL: z.url().optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_LIFETIME: seconds(300),
  REFRESH_TOKEN_LIFETIME: seconds(1_209_600),
  RESET_TOKEN_LIFETIME: seconds(3600),
  TRUST_PROXY: z.string().optional(),
  CORS_ORIGINS: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  RATE_LIMIT_LOGIN: rate(10, 900),
  RATE_LIMIT_RESET: rate(5, 3600),
  RATE_LIMIT_REGISTER: rate(20, 3600),
  MAX_UPLOAD_FILE_BYTES: z.coerce.number().int().nonnegative().default(defaultLimits.maxUploadFileBytes),
  MAX_UPLOAD_FILES: z.coerce.number().int().nonnegative().default(defaultLimits.maxUploadFiles),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(defaultLimits.maxBodyBytes),
  /** Argon2id cost; the defaults follow OWASP's password storage cheat sheet (m=19 MiB, t=2). */
  ARGON2_MEMORY_KIB: z.coerce.number().int().min(8).default(19_456),
  ARGON2_TIME_COST: z.coerce.number().int().min(1).default(2),
});

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

const defaultWebDist = () => path.resolve(import.meta.dirname, '../../web/dist');

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
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
