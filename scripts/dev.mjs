#!/usr/bin/env node
// `npm run dev`: the API server, rebuilt and restarted on every change, beside Vite's dev server with
// hot reload (which proxies /api and /download_pdf_by_id to the API; packages/web/vite.config.ts).
//
// With what is installed, no extra tool: `tsc -b --watch` compiles contract and server into dist/,
// and `node --watch` restarts the server whenever a compiled file it loaded changes.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const vite = path.join(root, 'node_modules/vite/bin/vite.js');
const host = process.env.HOST ?? '127.0.0.1';
const port = process.env.PORT ?? '8000';

// One build first, so the server has a dist/ to start from.
const first = spawnSync(process.execPath, [tsc, '-b', 'packages/server'], { cwd: root, stdio: 'inherit' });
if (first.status !== 0) process.exit(first.status ?? 1);

/** @type {import('node:child_process').ChildProcess[]} */
const children = [];
let stopping = false;

/**
 * @param {string} name
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 */
function start(name, args, options = {}) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    ...options,
    env: { ...process.env, ...options.env },
  });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[dev] ${name} stopped (${signal ?? `exit ${code}`}); stopping the rest.`);
    stop(code ?? 1);
  });
  children.push(child);
}

/** @param {number} code */
function stop(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  // Give the server its graceful shutdown, then go.
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(
    children.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r)))),
  ).then(() => process.exit(code));
}

start('tsc --watch', [tsc, '-b', 'packages/server', '--watch', '--preserveWatchOutput']);
start('API server', ['--watch', 'packages/server/dist/server.js'], {
  env: { NODE_ENV: process.env.NODE_ENV ?? 'development' },
});
start('vite', [vite, '--host', '127.0.0.1'], {
  cwd: path.join(root, 'packages/web'),
  env: { API_ORIGIN: process.env.API_ORIGIN ?? `http://${host.includes(':') ? `[${host}]` : host}:${port}` },
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
