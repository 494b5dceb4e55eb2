import { readFileSync, statSync } from 'node:fs';

/**
 * The process entry (`node dist/server.js`, `npm start`): runs main.ts, from one of two builds of it.
 *
 * `npm run build` also bundles main.js and everything it imports into dist/main.bundle.js
 * (scripts/bundle.mjs): loading one file instead of each of the server's modules one by one is most of
 * what a start saves. The bundle runs only while it is current: built after every file it was made from
 * (listed beside it). After `tsc -b` alone (a test's build, `npm run typecheck`, `npm run dev`'s watch)
 * the modules are newer, and run instead; so does anything started by `node --watch`, which restarts on
 * a change of the modules it saw loaded.
 */
const bundle = new URL('./main.bundle.js', import.meta.url);
const inputsList = new URL('./main.bundle.inputs.json', import.meta.url);

function bundleIsCurrent(): boolean {
  if (process.env.WATCH_REPORT_DEPENDENCIES) return false; // under `node --watch`
  try {
    const built = statSync(bundle).mtimeMs;
    const inputs = JSON.parse(readFileSync(inputsList, 'utf8')) as string[];
    return inputs.every((input) => statSync(new URL(input, inputsList)).mtimeMs <= built);
  } catch {
    return false; // no bundle (never built, esbuild not installed), or an input is gone
  }
}

await import(bundleIsCurrent() ? bundle.href : './main.js');
