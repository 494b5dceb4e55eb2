import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@hello/testkit';

/**
 * The BUILT server (`dist/server.js`) as a child process, for what only a real process shows:
 * SIGKILL, SIGTERM, its RSS, its log on stdout.
 */
export const serverRoot = path.resolve(import.meta.dirname, '../..');
const entry = path.join(serverRoot, 'dist/server.js');

function newestMtime(dir: string, ext: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    if (!name.endsWith(ext)) continue;
    newest = Math.max(newest, statSync(path.join(dir, name)).mtimeMs);
  }
  return newest;
}

/**
 * Builds `dist` when a source file is newer than it (tsc -b, serialised by a lock so parallel
 * suites never build at once). Fails with a plain message when the build itself fails.
 */
export function ensureBuilt(): void {
  const stale = () =>
    !existsSync(entry) ||
    newestMtime(path.join(serverRoot, 'src'), '.ts') > newestMtime(path.join(serverRoot, 'dist'), '.js');
  if (!stale()) return;
  try {
    execFileSync('flock', ['/tmp/hello-server-build.lock', 'npx', 'tsc', '-b', serverRoot], {
      cwd: serverRoot,
      stdio: 'pipe',
    });
  } catch (error) {
    const out = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    throw new Error(`packages/server/dist is stale and \`npx tsc -b packages/server\` failed:\n${out}`, {
      cause: error,
    });
  }
  if (!existsSync(entry)) throw new Error(`${entry} is missing after the build`);
}

export interface SpawnedServer {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** Everything the process printed on stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code and signal; already-exited processes resolve at once. */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
}

export interface SpawnOptions {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  /** How long to wait for the "is serving" line. */
  readyTimeoutMs?: number;
  /** Options for node itself, before the script (e.g. `--trace-gc`). */
  nodeArgs?: string[];
}

/** A start that failed because another process took the port between freePort() and listen(). */
class PortTakenError extends Error {}

/**
 * Starts `node dist/server.js` on 127.0.0.1 and resolves once it listens. A port that freePort()
 * found free can be taken by any other process (a client's outgoing connection, another suite's
 * server) in the second or so before the server listens; the start is then tried again on another
 * port, unless the caller asked for this one.
 */
export async function spawnServer(options: SpawnOptions): Promise<SpawnedServer> {
  ensureBuilt();
  // One time limit for all the tries.
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await spawnOnce(options, options.port ?? (await freePort()), deadline);
    } catch (error) {
      if (!(error instanceof PortTakenError) || options.port !== undefined || attempt === 3) throw error;
    }
  }
}

async function spawnOnce(options: SpawnOptions, port: number, deadline: number): Promise<SpawnedServer> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: options.dataDir,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // cwd = the data dir: the server must not read a developer's .env from the repository.
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), entry], {
    cwd: options.dataDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout!.setEncoding('utf8').on('data', (c: string) => chunks.push(c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => chunks.push(c));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  // 'close' comes once its output is read to the end, which 'exit' does not wait for.
  const closed = new Promise((resolve) => child.once('close', resolve));
  const output = () => chunks.join('');
  while (!/is serving/.test(output())) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await closed;
      const message = `server exited while starting:\n${output()}`;
      throw /\bEADDRINUSE\b/.test(output()) ? new PortTakenError(message) : new Error(message);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within the time:\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    child,
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    output,
    exited: () => exit,
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: Buffer;
  json<T = unknown>(): T;
}

/** fetch with a time limit, the body read in full. Never through a proxy: loopback only. */
export async function call(url: string, init: RequestInit & { timeoutMs?: number } = {}): Promise<HttpAnswer> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(init.timeoutMs ?? 30_000) });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

/** A multipart body of fields and files, as a browser's FormData would send it. */
export function formData(
  fields: Record<string, string>,
  files: { name: string; type: string; bytes: Uint8Array }[] = [],
): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) form.append('files', new Blob([f.bytes], { type: f.type }), f.name);
  return form;
}
