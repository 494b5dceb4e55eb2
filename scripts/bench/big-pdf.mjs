// The 5 MiB PDF added for the benchmark: built by the server's own `buildLargePdf(targetBytes)`
// (packages/server/src/pdfs/demo-pdfs.ts) and added through the operator CLI
// (`node packages/server/dist/cli.js add-pdf <file> --id N`), the same code path an operator uses.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { finished, startChild, stopChild } from './processes.mjs';
import { benchEnv, CLI_ENTRY, SERVER_DIST } from './server.mjs';

export const BIG_PDF_BYTES = 5 * 1024 * 1024;
export const BIG_PDF_ID = 100;

/**
 * Builds the PDF and writes it to `dir/large.pdf`; returns the file's path.
 * @param {string} dir
 */
export async function writeBigPdf(dir, targetBytes = BIG_PDF_BYTES) {
  const module = await import(pathToFileURL(path.join(SERVER_DIST, 'pdfs/demo-pdfs.js')).href);
  if (typeof module.buildLargePdf !== 'function') throw new Error('dist/pdfs/demo-pdfs.js has no buildLargePdf');
  const bytes = await module.buildLargePdf(targetBytes);
  const file = path.join(dir, 'large.pdf');
  writeFileSync(file, bytes);
  return file;
}

/**
 * Adds `file` under `id` to the product's store in `dataDir` with the operator CLI.
 * @param {string} dataDir
 * @param {string} file
 */
export async function addPdfWithCli(dataDir, file, id = BIG_PDF_ID) {
  const tracked = startChild('cli add-pdf', process.execPath, [CLI_ENTRY, 'add-pdf', file, '--id', String(id)], {
    cwd: path.dirname(dataDir),
    env: benchEnv(dataDir, 0),
  });
  const timer = setTimeout(() => stopChild(tracked), 60_000);
  await finished(tracked.child);
  clearTimeout(timer);
  if (tracked.child.exitCode !== 0) {
    throw new Error(
      `cli add-pdf exited with ${tracked.child.exitCode ?? tracked.child.signalCode}:\n${tracked.output()}`,
    );
  }
  return id;
}
