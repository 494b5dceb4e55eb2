// Every process and temporary directory the benchmark creates is registered here, so that one
// cleanup stops them all: at the end of a run, on an error, on Ctrl-C (SIGINT) or SIGTERM.
// Only children we started are ever signalled, each by its own pid.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * @typedef {{ child: import('node:child_process').ChildProcess, name: string, stopSignal: NodeJS.Signals,
 *   exitSignal: NodeJS.Signals, output: () => string }} Tracked
 */

/** @type {Set<Tracked>} */
const children = new Set();
/** @type {Set<string>} */
const tempDirs = new Set();
/** @type {Set<() => unknown>} */
const closers = new Set();

const OUTPUT_KEEP = 16 * 1024;

/**
 * Starts a child process and keeps the last 16 KiB of its stdout+stderr for error messages.
 * @param {string} name a label for messages
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & { stopSignal?: NodeJS.Signals, exitSignal?: NodeJS.Signals }} [options]
 *   stopSignal: asks it to stop (then SIGKILL after a grace period); exitSignal: sent from the
 *   synchronous 'exit' handler, where there is no waiting (SIGKILL unless killing would orphan
 *   grandchildren, as for nginx's workers)
 */
export function startChild(name, command, args, options = {}) {
  const { stopSignal = 'SIGTERM', exitSignal = 'SIGKILL', ...spawnOptions } = options;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...spawnOptions });
  let output = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEEP);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  /** @type {Tracked} */
  const tracked = { child, name, stopSignal, exitSignal, output: () => output };
  children.add(tracked);
  child.once('exit', () => children.delete(tracked));
  child.once('error', () => children.delete(tracked));
  return tracked;
}

/**
 * Resolves when the child has exited (at once if it already has).
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<void>}
 */
export function exited(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve(undefined)));
}

/**
 * Asks a child to stop with its stop signal; SIGKILL after `graceMs`.
 * @param {Tracked} tracked
 */
export async function stopChild(tracked, graceMs = 5000) {
  const { child } = tracked;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill(tracked.stopSignal);
  let timer;
  const killed = new Promise((resolve) => {
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(undefined);
    }, graceMs);
  });
  await Promise.race([exited(child), killed]);
  clearTimeout(timer);
  await exited(child);
}

/**
 * A fresh temporary directory, removed by the cleanup.
 * @param {string} label
 */
export function tempDir(label) {
  const dir = mkdtempSync(path.join(tmpdir(), `hello-bench-${label}-`));
  tempDirs.add(dir);
  return dir;
}

/**
 * Registers something else to close at cleanup (a browser, say). Returns an unregister function.
 * @param {() => unknown} close awaited at cleanup
 */
export function onCleanup(close) {
  closers.add(close);
  return () => closers.delete(close);
}

/** @type {Promise<void> | undefined} */
let cleaning;
/**
 * Resolves when the child has exited and its output has been read to the end.
 * @param {import('node:child_process').ChildProcess} child
 * @returns {Promise<void>}
 */
export function finished(child) {
  if (
    child.stdout?.closed !== false &&
    child.stderr?.closed !== false &&
    (child.exitCode !== null || child.signalCode !== null)
  ) {
    return Promise.resolve();
  }
  return new Promise((resolve) => child.once('close', () => resolve(undefined)));
}

/** Stops every child, runs every closer, removes every temporary directory. Safe to call twice. */
export function cleanupAll() {
  cleaning ??= (async () => {
    for (const close of [...closers].reverse()) {
      try {
        await close();
      } catch {
        /* closing is best effort */
      }
    }
    closers.clear();
    await Promise.all([...children].map((t) => stopChild(t).catch(() => {})));
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
    tempDirs.clear();
  })();
  return cleaning;
}

/**
 * Ctrl-C, SIGTERM and a crash all end in the cleanup; a last synchronous pass on 'exit' signals
 * whatever is left (the event loop no longer runs there, so it cannot wait).
 */
export function installCleanupHandlers() {
  for (const signal of /** @type {NodeJS.Signals[]} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping everything it started…`);
      cleanupAll().finally(() => process.exit(130));
    });
  }
  process.once('exit', () => {
    for (const { child, exitSignal } of children) {
      try {
        child.kill(exitSignal);
      } catch {
        /* already gone */
      }
    }
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  });
}
