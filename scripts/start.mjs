#!/usr/bin/env node
// `npm start`: builds what is missing or older than its sources, then runs the server.
//
// The server runs in this very process (an import of packages/server/dist/server.js) rather than as a
// child: signals then reach it exactly once, whether they are sent to this pid or to the whole process
// group (a terminal's Ctrl-C, a supervisor), and its exit code is ours. A forwarding parent would
// deliver a group signal twice, and the server takes a second SIGTERM as "stop now, drop requests".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
// When start.mjs last built everything. A source can be newer than its dist with nothing to emit (a
// package.json script edit: tsc -b then writes nothing), so dist times alone would rebuild forever.
const stampFile = path.join(root, 'node_modules/.cache/hello-all/build-stamp');
const shared = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
const packages = {
  contract: ['src', 'package.json', 'tsconfig.json'],
  server: ['src', 'scripts', 'package.json', 'tsconfig.json'],
  web: ['src', 'public', 'index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'],
};

/**
 * Newest modification time under `target` (a file or a folder), 0 when it does not exist.
 * @param {string} target
 * @returns {number}
 */
function newest(target) {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules') continue;
    latest = Math.max(latest, newest(path.join(target, entry)));
  }
  return latest;
}

/**
 * Why a package needs building, or null when its last build is newer than all of its sources.
 * @param {string} name
 * @param {string[]} sources
 */
function staleReason(name, sources) {
  const dir = path.join(root, 'packages', name);
  const dist = path.join(dir, 'dist');
  if (!existsSync(dist) || readdirSync(dist).length === 0) return `packages/${name}/dist is missing`;
  const sourceTime = Math.max(
    ...sources.map((s) => newest(path.join(dir, s))),
    ...shared.map((s) => newest(path.join(root, s))),
  );
  return sourceTime > Math.max(newest(dist), newest(stampFile))
    ? `packages/${name} changed since its last build`
    : null;
}

/** Why each stale package needs building; empty when nothing does. */
const staleReasons = () =>
  Object.entries(packages)
    .map(([name, sources]) => staleReason(name, sources))
    .filter(Boolean);

/** Builds what is stale (npm run build), or nothing; exits the process if the build fails. */
function buildIfStale() {
  const reasons = staleReasons();
  if (reasons.length === 0) return;
  console.log(`Building first (${reasons.join('; ')}): npm run build`);
  const began = new Date(); // edits made while it builds still count as newer
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(
      build.error
        ? `npm run build failed: ${build.error.message}`
        : `npm run build failed (exit ${build.status ?? build.signal}).`,
    );
    process.exit(build.status || 1);
  }
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, '');
  utimesSync(stampFile, began, began);
}

// Two starts at once (two e2e runs, say) must not build into the same dist folders together: the
// build runs under a lock, in a child that asks again what is stale once it holds it. Without flock
// (not a Linux system), unlocked. (`npm run build` and the bench's --build take no lock.)
const lockFile = path.join(path.dirname(stampFile), 'build.lock');
const BUILD_CHILD = 'HELLO_START_BUILD_CHILD';
if (process.env[BUILD_CHILD]) {
  buildIfStale();
  process.exit(0);
}
if (staleReasons().length > 0) {
  mkdirSync(path.dirname(lockFile), { recursive: true });
  const underLock = (/** @type {string[]} */ ...flockOptions) =>
    spawnSync('flock', [...flockOptions, lockFile, process.execPath, import.meta.filename], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, [BUILD_CHILD]: '1' },
    });
  const BUSY = 75;
  let locked = underLock('--nonblock', '--conflict-exit-code', String(BUSY));
  if (locked.status === BUSY) {
    console.log('Another start is building; waiting for it to finish.');
    locked = underLock();
  }
  if (locked.error) buildIfStale();
  else if (locked.status !== 0) process.exit(locked.status || 1);
}

// The server reads `.env` and resolves DATA_DIR from the working directory: the repository root.
process.chdir(root);
await import(pathToFileURL(path.join(root, 'packages/server/dist/server.js')).href);
