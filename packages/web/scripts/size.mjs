// Reports the gzip size of what the home page loads (every script, modulepreload and stylesheet
// that dist/index.html references) and of the PDF viewer's route chunk. Budget (docs/benchmarks.md): home
// page JS + CSS ≤ 90 KB gzip. Run after `vite build`: `npm run size -w @hello/web`.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BUDGET = 90 * 1000;
const gz = (/** @type {string} */ file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(2)} kB`;

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let total = 0;
for (const file of new Set(assets)) {
  const size = gz(file);
  total += size;
  console.log(`home   ${kb(size).padStart(10)}  ${file}`);
}
console.log(`home   ${kb(total).padStart(10)}  total JS+CSS (budget ${kb(BUDGET)})`);

const viewer = readdirSync(join(dist, 'assets')).filter((f) => /^pdf-viewer-.*\.(js|css)$/.test(f));
for (const file of viewer) console.log(`viewer ${kb(gz(`assets/${file}`)).padStart(10)}  assets/${file}`);
if (total > BUDGET) {
  console.error('The home page is over its budget.');
  process.exitCode = 1;
}
