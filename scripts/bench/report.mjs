// The report: one Markdown table (measurement | figure | ceiling/budget | ratio | within budget?),
// the machine, notes; printed to stdout, and with --write written to docs/benchmarks.md under a
// short header that says how to reproduce it. Units are decimal: 1 kB = 1000 bytes (as Vite prints
// sizes), 1 MB = 10^6 bytes.
import { readFileSync, writeFileSync } from 'node:fs';
import { machineLine } from './machine.mjs';

const number = (/** @type {number} */ value, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** autocannon records latencies in whole milliseconds: below that it cannot tell one from another. */
const LATENCY_RESOLUTION_MS = 1;

export const fmt = {
  reqs: (/** @type {number} */ v) => `${number(v)} req/s`,
  ms: (/** @type {number} */ v) => (v < 1 ? `${number(v, 2)} ms` : v < 10 ? `${number(v, 1)} ms` : `${number(v)} ms`),
  /** A latency from autocannon: "< 1 ms" below its resolution. */
  latency: (/** @type {number} */ v) => (v < LATENCY_RESOLUTION_MS ? `< ${LATENCY_RESOLUTION_MS} ms` : fmt.ms(v)),
  seconds: (/** @type {number} */ ms) => `${number(ms / 1000, 2)} s`,
  mbps: (/** @type {number} */ v) => `${number(v / 1e6, v < 1e7 ? 1 : 0)} MB/s`,
  mb: (/** @type {number} */ v) => `${number(v / 1e6, 1)} MB`,
  kb: (/** @type {number} */ v) => `${number(v / 1e3, 1)} kB`,
  /** A file's size: kB below 1 MB, MB above. */
  size: (/** @type {number} */ v) => (v < 1e6 ? `${number(v / 1e3, 1)} kB` : `${number(v / 1e6, 2)} MB`),
  /** One decimal, so that a share of 49.8% against a budget of 50% does not print as "50%" beside a NO. */
  pct: (/** @type {number} */ v) => `${number(v * 100, 1)}%`,
  times: (/** @type {number} */ v) => `${number(v, v < 10 ? 2 : 1)}×`,
};

/**
 * @typedef {{ measurement: string, figure: string, reference?: string, ratio?: string,
 *   verdict?: 'yes' | 'NO' | 'n/a' | '—' }} Row
 */

/** The ratio of two autocannon latencies, each one under its resolution counted as the resolution. */
export const latencyRatio = (/** @type {number} */ a, /** @type {number} */ b) =>
  Math.max(a, LATENCY_RESOLUTION_MS) / Math.max(b, LATENCY_RESOLUTION_MS);

/** A within-budget cell. */
export const verdict = (/** @type {boolean} */ ok) => (ok ? 'yes' : 'NO');

const escapeCell = (/** @type {string | undefined} */ text) =>
  String(text ?? '')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ');

/** @param {Row[]} rows */
export function renderTable(rows) {
  const lines = ['| measurement | figure | ceiling / budget | ratio | within budget? |', '|---|---|---|---|---|'];
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
  const la = (/** @type {number[]} */ l) => l.map((v) => v.toFixed(2)).join(' ');
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

/**
 * Puts the run's table in place of the doc's "## Latest run" section, up to the next "## " heading:
 * the method above it and the sections after it (what changed, how much figures move) are prose
 * written by hand, and stay.
 * @param {string} file
 * @param {string} reportMarkdown
 */
export function writeDoc(file, reportMarkdown) {
  const doc = readFileSync(file, 'utf8');
  const start = doc.indexOf('\n## Latest run\n');
  if (start < 0) throw new Error(`${file} has no "## Latest run" section to replace`);
  const next = doc.indexOf('\n## ', start + 1);
  const rest = next < 0 ? '' : doc.slice(next);
  writeFileSync(file, `${doc.slice(0, start)}\n## Latest run\n\n${reportMarkdown.trimEnd()}\n${rest}`);
}
