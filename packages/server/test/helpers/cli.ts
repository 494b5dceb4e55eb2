import { Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli/run.js';
import type { TestApp } from './build.js';

/** Runs `hello-admin <argv>` in-process on the test app's data and database; captures its output. */
export async function cli(t: TestApp, argv: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const env = {
    DATA_DIR: t.dataDir,
    LOG_LEVEL: 'silent',
    ARGON2_MEMORY_KIB: '1024',
    ARGON2_TIME_COST: '1',
    WEB_DIST_DIR: t.config.webDistDir,
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    ...options.env,
  };
  const code = await runCli(argv, env, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    stdin: Readable.from([options.stdin ?? '']),
    promptOut: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
