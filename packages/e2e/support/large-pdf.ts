import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './product-server';

/**
 * The benchmark's large PDF (scripts/bench/big-pdf.mjs): about 5 MiB of numbered pages of text,
 * built by the server's own `buildLargePdf` and added with the operator CLI (`add-pdf --id`), the
 * way an operator adds one. Global setup adds it to every server; pdf-viewer-large.spec.ts opens it.
 */
export const LARGE_PDF_ID = 100;
export const LARGE_PDF_BYTES = 5 * 1024 * 1024;

const serverDist = path.join(repoRoot, 'packages/server/dist');

/** Builds the PDF into `dir/large.pdf` (the server must be built: `npm start` builds it). */
export async function writeLargePdf(dir: string): Promise<string> {
  const module = (await import(pathToFileURL(path.join(serverDist, 'pdfs/demo-pdfs.js')).href)) as {
    buildLargePdf(targetBytes: number): Promise<Uint8Array>;
  };
  const file = path.join(dir, 'large.pdf');
  writeFileSync(file, await module.buildLargePdf(LARGE_PDF_BYTES));
  return file;
}

/** `node packages/server/dist/cli.js add-pdf <file> --id 100` with a server's environment. */
export async function addLargePdf(file: string, env: Record<string, string>): Promise<void> {
  const child = spawn(
    process.execPath,
    [path.join(serverDist, 'cli.js'), 'add-pdf', file, '--id', String(LARGE_PDF_ID)],
    {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`cli add-pdf exited with ${code}:\n${output}`);
}
