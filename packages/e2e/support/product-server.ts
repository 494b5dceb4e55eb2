import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository root: `npm start` runs from here. */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');

export interface ProductServer {
  name: string;
  url: string;
  logFile: string;
  stop(): Promise<void>;
}

export interface StartProductOptions {
  name: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  /** How long the first start may take: it builds contract, server and web when they are not built. */
  readyTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The log's error lines (a failed build's cause is often far above its end) and its last lines. */
function tail(file: string, lines = 25): string {
  let all: string[];
  try {
    all = readFileSync(file, 'utf8').trimEnd().split('\n');
  } catch {
    return '(no log)';
  }
  const last = all.slice(-lines);
  const errors = all
    .slice(0, -lines)
    .filter((line) => /error|failed|cannot|exception/i.test(line))
    .slice(-15);
  return [...(errors.length ? [...errors, '…'] : []), ...last].join('\n');
}

/** Sends a signal to the process group of a detached child (start.mjs and whatever it spawned). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/** What `npm start` runs (the root package.json's start script, `node <options> scripts/start.mjs`), as arguments of node. */
function startScriptArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = scripts.start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`the start script does not run node: ${scripts.start}`);
  return args;
}

/**
 * Starts the product the way the README does, `npm start` (node with the start script's arguments,
 * without npm in between) from the repository root, and waits until it answers. Its output goes to
 * `logFile`.
 */
export async function startProductServer(options: StartProductOptions): Promise<ProductServer> {
  const { name, port, env, logFile, readyTimeoutMs = 240_000 } = options;
  const url = `http://127.0.0.1:${port}`;
  const out = openSync(logFile, 'a');
  const child = spawn(process.execPath, startScriptArgs(), {
    cwd: repoRoot,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), PUBLIC_URL: url },
    stdio: ['ignore', out, out],
    // Its own process group, so stop() reaches the server even when start.mjs runs it as a child.
    detached: true,
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    signalGroup(child, 'SIGTERM');
    const gone = await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]);
    if (!gone) {
      signalGroup(child, 'SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The ${name} product server (npm start) exited with ${child.exitCode ?? child.signalCode} before answering on ${url}. Its log (${logFile}):\n${tail(logFile)}`,
      );
    }
    if (await answers(url)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The ${name} product server did not answer on ${url} within ${readyTimeoutMs / 1000} s. Its log (${logFile}):\n${tail(logFile)}`,
      );
    }
    await sleep(250);
  }
  return { name, url, logFile, stop };
}

async function answers(url: string): Promise<boolean> {
  for (const probe of ['/api/openapi.json', '/']) {
    try {
      const res = await fetch(url + probe, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.ok) return true;
    } catch {
      // not listening yet
    }
  }
  return false;
}
