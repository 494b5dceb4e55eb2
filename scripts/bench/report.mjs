// The report: one Markdown table (measurement | figure | ceiling/budget | ratio | within budget?),
// the machine, notes; printed to stdout, and with --write written to docs/benchmarks.md under a
// short header that says how to reproduce it. Units are decimal: 1 kB = 1000 bytes (as Vite prints
// sizes), 1 MB = 10^6 bytes.
import { writeFileSync } from 'node:fs';
import { machineLine } from './machine.mjs';

const number = (value, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** autocannon records latencies in whole milliseconds: below that it cannot tell one from another. */
const LATENCY_RESOLUTION_MS = 1;

export const fmt = {
  reqs: (v) => `${number(v)} req/s`,
  ms: (v) => (v < 1 ? `${number(v, 2)} ms` : v < 10 ? `${number(v, 1)} ms` : `${number(v)} ms`),
  /** A latency from autocannon: "< 1 ms" below its resolution. */
  latency: (v) => (v < LATENCY_RESOLUTION_MS ? `< ${LATENCY_RESOLUTION_MS} ms` : fmt.ms(v)),
  seconds: (ms) => `${number(ms / 1000, 2)} s`,
  mbps: (v) => `${number(v / 1e6, v < 1e7 ? 1 : 0)} MB/s`,
  mb: (v) => `${number(v / 1e6, 1)} MB`,
  kb: (v) => `${number(v / 1e3, 1)} kB`,
  /** A file's size: kB below 1 MB, MB above. */
  size: (v) => (v < 1e6 ? `${number(v / 1e3, 1)} kB` : `${number(v / 1e6, 2)} MB`),
  pct: (v) => `${number(v * 100)}%`,
  times: (v) => `${number(v, v < 10 ? 2 : 1)}×`,
};

/**
 * @typedef {{ measurement: string, figure: string, reference?: string, ratio?: string,
 *   verdict?: 'yes' | 'NO' | 'n/a' | '—' }} Row
 */

/** The ratio of two autocannon latencies, each one under its resolution counted as the resolution. */
export const latencyRatio = (a, b) => Math.max(a, LATENCY_RESOLUTION_MS) / Math.max(b, LATENCY_RESOLUTION_MS);

/** A within-budget cell. */
export const verdict = (ok) => (ok ? 'yes' : 'NO');

const escapeCell = (text) => String(text ?? '').replaceAll('|', '\\|').replaceAll('\n', ' ');

/** @param {Row[]} rows */
export function renderTable(rows) {
  const lines = [
    '| measurement | figure | ceiling / budget | ratio | within budget? |',
    '|---|---|---|---|---|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${[row.measurement, row.figure, row.reference ?? '', row.ratio ?? '', row.verdict ?? '—'].map(escapeCell).join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The whole report as Markdown: run line, machine, table, notes.
 * @param {{ rows: Row[], notes: string[], machine: ReturnType<import('./machine.mjs').describeMachine>,
 *   mode: string, started: Date, seconds: number, load: [number[], number[]], commit: string }} run
 */
export function renderReport(run) {
  const [loadBefore, loadAfter] = run.load;
  const la = (l) => l.map((v) => v.toFixed(2)).join(' ');
  return [
    `Run of ${run.started.toISOString().replace(/\.\d+Z$/, 'Z')}, ${run.mode}, commit ${run.commit}, ${fmt.seconds(run.seconds * 1000)} in total.`,
    '',
    `Machine: ${machineLine(run.machine)}. Load average before / after: ${la(loadBefore)} / ${la(loadAfter)}.`,
    '',
    renderTable(run.rows),
    '',
    ...(run.notes.length > 0 ? ['Notes:', '', ...run.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}

export const DOC_HEADER = `# Benchmarks

The product beside its ceilings, in one run, on one machine (issue 6). Reproduce with

\`\`\`sh
npm run bench              # full run (several minutes); prints the table below
npm run bench -- --short   # the CI variant: fewer requests and repetitions, about a minute
npm run bench -- --write   # also rewrites this file with the run's table
npm run bench -- --build   # rebuild (npm run build) first; otherwise only a missing build is built
\`\`\`

What the script (\`scripts/bench.mjs\`, pieces in \`scripts/bench/\`) does: it starts the built product
(\`node packages/server/dist/server.js\` with the node options of \`npm start\`, \`NODE_ENV=production\`, SQLite in a fresh temporary \`DATA_DIR\`,
\`LOG_LEVEL=warn\`, rate limits off, \`ACCESS_TOKEN_LIFETIME=3600\`) as its own process, and beside it the
ceilings, each its own process: a bare \`node:http\` server answering the news list's exact answer
(the product's headers and body) from memory, and nginx (Debian's \`nginx-light\`; one worker, \`sendfile on\`, no access log) serving the same
PDF files. Load comes from autocannon (10 connections, keep-alive) on 127.0.0.1, after an unmeasured
warm-up. It is a benchmark, not a test: a missed budget is reported, never a failure.

- **JSON reads**: \`GET /api/v1/localnews/\` with a Bearer token and 20 items (one small file each), flat
  out, beside the ceiling; product and ceiling alternate in five runs of 2 s each, and each one's median
  run counts, so a busy spell of the machine falls on both alike. The load generator runs on the first
  core and the servers on the others (\`taskset\`, \`scripts/bench/cores.mjs\`), so that no server's
  threads share the client's core. Budget: at least 50% of the ceiling's requests per second, and
  (called met only when both are) at least 50% by CPU time per request (\`/proc/<pid>/stat\`, all
  threads): the ceiling's over the product's, the rate the product would reach on equal CPU. The
  second still holds when the ceiling answers faster than one core of load generator can ask, which
  makes the first too kind. Also, for comparison, a ceiling that answers the body with a content-type
  alone.
- **Logins do not stall reads**: the same list at a fixed rate (a quarter of the server's flat-out rate,
  between 50 and 1000 req/s, so latency shows stalls rather than queueing) alone, then while a second
  autocannon instance runs \`POST /api/v1/token/\` flat out (8 connections). Budget: loaded p99 at most 3× idle p99
  (autocannon records whole milliseconds: a latency under 1 ms is shown as "< 1 ms" and counts as 1 ms in
  the ratio). Logins per second are measured alone, with the default argon2id cost (m=19456 KiB, t=2, p=1).
- **PDF serving**: \`GET /download_pdf_by_id/3\` and a 5 MiB PDF (built by the server's \`buildLargePdf\`,
  added with \`cli.js add-pdf\`) beside nginx serving the same bytes. Budget: at least 60% of nginx's
  bytes per second; memory flat while serving: RSS from the end of each warm-up to the end of its run.
- **Memory**: the server's RSS (\`VmRSS\`) after rounds of 100,000 mixed requests (news list, PDF 3,
  the home page; no logins), three rounds. Budget: at most 150 MB, no growth beyond noise (10%). The
  same 150 MB is held against the RSS right after the login runs of the second measurement, which
  hash passwords flat out for some 20 s (1 s of warm-up, 10 s alone, 10.5 s beside the reads).
- **Start-up**: spawn to first answer (\`GET /api/openapi.json\` polled every 10 ms), cold on an empty
  \`DATA_DIR\` (migrations, demo PDFs) and warm (same \`DATA_DIR\`), medians of 3. Budget: warm at most 1 s.
- **Web**: gzip -9 sizes of the JS and CSS \`dist/index.html\` loads (scripts, stylesheets,
  modulepreloads and their static imports; budget 90 kB), of the PDF viewer's chunk (the file holding
  pdf.js's main-thread library, recognised by its \`pdfjs_internal_\` markers and \`GlobalWorkerOptions\`,
  plus what it needs that the home page has not loaded) and of pdf.js's worker; in headless Chromium,
  each load in a fresh context: first-contentful-paint of \`/\` and the first non-white canvas pixel on
  \`/pdfviewer\`, medians of 5. And the bytes the server really sends for the home page's files to a
  browser that accepts brotli and gzip.

The machine is shared (other work runs beside the benchmark), so absolute figures are noisy; the
ratios, measured minutes apart on the same machine, are the figures to compare. Units are decimal:
1 kB = 1000 bytes, 1 MB = 10^6 bytes.

## Latest run

`;

export function writeDoc(file, reportMarkdown) {
  writeFileSync(file, `${DOC_HEADER}${reportMarkdown}`);
}
