#!/usr/bin/env node
// Part of `npm run build`, after `tsc -b`: bundles dist/main.js and everything it imports into
// dist/main.bundle.js, which dist/server.js runs while it is current (see src/server.ts). A start
// then loads one file instead of some 1,000 modules, which was most of its time.
//
// Left out, loaded from node_modules when used: native addons (@node-rs/argon2, better-sqlite3), and what
// most starts never need (pg, nodemailer, the common-password list: loaded on first use; pino-pretty: only
// for a log read at a terminal, src/log-destination.ts). The demo PDFs' code and pdf-lib go into a chunk
// of their own, loaded only when the demo PDFs are written.
//
// Without esbuild (an install without dev dependencies) there is no bundle and nothing breaks:
// dist/server.js runs the modules.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const entry = 'main.bundle.js';
const inputsList = 'main.bundle.inputs.json';
const chunks = 'bundle-chunks';

let esbuild;
try {
  esbuild = await import('esbuild');
} catch {
  console.warn('esbuild is not installed: no bundle; dist/server.js runs the modules (slower to start).');
  rmSync(path.join(dist, inputsList), { force: true });
  process.exit(0);
}

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: { 'main.bundle': 'dist/main.js' },
  entryNames: '[name]',
  chunkNames: `${chunks}/[name]-[hash]`,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [
    '@node-rs/argon2',
    'better-sqlite3',
    'pg',
    'pg-native',
    'nodemailer',
    '@zxcvbn-ts/language-common',
    'pino-pretty',
  ],
  // Bundled CommonJS code calls require() for Node's modules and the external ones.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  legalComments: 'none',
  // Stack traces map back to the TypeScript sources with `node --enable-source-maps`.
  sourcemap: 'linked',
  metafile: true,
  write: false,
  logLevel: 'warning',
});

// The list goes first and the bundle last, each written whole (temporary name, then renamed), so a
// server starting meanwhile never runs half a file, nor a new bundle against an old list.
const write = (/** @type {string} */ file, /** @type {string | Uint8Array} */ contents) => {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, contents);
  renameSync(temp, file);
};
// What the bundle was made from, besides node_modules: our compiled modules and the contract's. Any
// of them newer than the bundle (rebuilt by tsc -b since) makes dist/server.js run the modules.
// node_modules/.package-lock.json stands for node_modules: npm rewrites it on every install.
const inputs = Object.keys(result.metafile.inputs)
  .filter((input) => !input.split('/').includes('node_modules'))
  .map((input) => path.resolve(root, input));
const installed = path.resolve(root, '../../node_modules/.package-lock.json');
if (existsSync(installed)) inputs.push(installed);
write(
  path.join(dist, inputsList),
  `${JSON.stringify(
    inputs.map((file) => path.relative(dist, file).split(path.sep).join('/')),
    null,
    1,
  )}\n`,
);

rmSync(path.join(dist, chunks), { recursive: true, force: true });
const outputs = result.outputFiles.sort((a, b) => Number(a.path.endsWith(entry)) - Number(b.path.endsWith(entry)));
for (const output of outputs) write(output.path, output.contents);
