#!/usr/bin/env node
// `npm test`: builds what the chosen suites need, runs every suite that exists (Vitest per
// workspace, then Playwright), and ends with one line: `N passed, N failed` (`, N skipped` if any).
// It fails when a test fails, a build fails, a suite cannot run or writes no report, or a suite
// runs zero tests. TEST_SUITES=server,web runs a subset.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, '.tmp', 'test-results');
const bin = (/** @type {string} */ name) => join(root, 'node_modules', '.bin', name);

/** Each suite: how to tell it exists, what it needs built first, how to run it, how to count it. */
const SUITES = [
  { name: 'testkit', kind: 'vitest', needs: [] },
  { name: 'contract', kind: 'vitest', needs: ['contract'] },
  { name: 'server', kind: 'vitest', needs: ['contract', 'server'] },
  { name: 'web', kind: 'vitest', needs: ['contract', 'web'] },
  { name: 'e2e', kind: 'playwright', needs: ['contract', 'server', 'web'] },
];
const BUILD_ORDER = ['contract', 'server', 'web'];
/** @typedef {(typeof SUITES)[number]} Suite */
/** @typedef {import('vitest/reporters').JsonTestResults} VitestReport Vitest's JSON report */
/** @typedef {import('@playwright/test/reporter').JSONReport} PlaywrightReport Playwright's JSON report */

/**
 * @param {string} dir
 * @returns {boolean}
 */
function hasTests(dir) {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some((entry) => {
    if (['node_modules', 'dist', '.tmp'].includes(entry.name)) return false;
    if (entry.isDirectory()) return hasTests(join(dir, entry.name));
    return /\.(test|spec)\.[cm]?[jt]sx?$/.test(entry.name);
  });
}

const exists = (/** @type {Suite} */ suite) => {
  const dir = join(root, 'packages', suite.name);
  if (suite.kind === 'playwright')
    return ['ts', 'js', 'mjs'].some((ext) => existsSync(join(dir, `playwright.config.${ext}`))) && hasTests(dir);
  return hasTests(dir);
};

/**
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} [env]
 */
function run(command, args, env = {}) {
  const started = performance.now();
  const { status, error } = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return { status: error ? `${error.message}` : status, seconds: (performance.now() - started) / 1000 };
}

/**
 * @param {string} workspace
 * @returns {{ note?: string, failed: boolean }}
 */
function build(workspace) {
  const pkg = JSON.parse(readFileSync(join(root, 'packages', workspace, 'package.json'), 'utf8'));
  if (!pkg.scripts?.build) return { note: `no build script in packages/${workspace}: not built`, failed: false };
  console.log(`\n=== build ${pkg.name}`);
  const { status, seconds } = run('npm', ['run', 'build', '-w', pkg.name]);
  if (status === 0) return { failed: false };
  return { note: `build of ${pkg.name} failed (exit ${status}, ${seconds.toFixed(1)} s)`, failed: true };
}

// The first lines of a failure, without colour codes: the summary is the part of a long log people read.
// Stack frames inside node_modules (or anonymous ones) say nothing about which assertion failed; a
// property test's counterexample can be long, and what went wrong comes after it ("Got error: ...").
const firstLines = (text = '') => {
  const lines = stripVTControlCharacters(text)
    .trim()
    .split('\n')
    .filter((line) => !/^\s*at .*(node_modules|<anonymous>)/.test(line))
    .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line));
  const got = lines.findIndex((line) => line.startsWith('Got error'));
  return [...lines.slice(0, 4), ...(got >= 4 ? lines.slice(got, got + 6) : [])].join('\n      ');
};

/**
 * @param {VitestReport} report
 * @returns {{ passed: number, failed: number, skipped: number, problem?: string, failures: string[] }}
 */
function countVitest(report) {
  const loadFailures = report.testResults.filter(
    (file) => file.status === 'failed' && !file.assertionResults.some((t) => t.status === 'failed'),
  );
  const failures = report.testResults.flatMap((file) => [
    ...file.assertionResults
      .filter((t) => t.status === 'failed')
      .map((t) => `${relative(process.cwd(), file.name)} › ${t.fullName}\n      ${firstLines(t.failureMessages?.[0])}`),
    ...(loadFailures.includes(file)
      ? [`${relative(process.cwd(), file.name)}\n      ${firstLines(file.message)}`]
      : []),
  ]);
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests + loadFailures.length,
    skipped: report.numPendingTests + report.numTodoTests,
    problem: loadFailures.length ? `${loadFailures.length} test file(s) failed outside any test` : undefined,
    failures,
  };
}

/**
 * Top-level suites are files (their title is the path); nested ones are describe blocks.
 * @param {import('@playwright/test/reporter').JSONReportSuite} suite
 * @param {string[]} [titles]
 * @returns {string[]}
 */
function playwrightFailures(suite, titles) {
  const path = titles ? [...titles, suite.title] : [];
  return [
    ...(suite.specs ?? []).flatMap((spec) =>
      spec.tests
        .filter((test) => test.status === 'unexpected')
        .map(
          (test) =>
            `[${test.projectName}] ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}\n      ${firstLines(test.results.at(-1)?.error?.message)}`,
        ),
    ),
    ...(suite.suites ?? []).flatMap((child) => playwrightFailures(child, path)),
  ];
}

/** @param {PlaywrightReport} report */
function countPlaywright(report) {
  const { expected = 0, unexpected = 0, flaky = 0, skipped = 0 } = report.stats ?? {};
  const errors = report.errors?.length ?? 0;
  return {
    passed: expected + flaky,
    failed: unexpected + errors,
    skipped,
    problem:
      [errors && `${errors} error(s) outside tests (global setup?)`, flaky && `${flaky} flaky`]
        .filter(Boolean)
        .join('; ') || undefined,
    failures: [
      ...(report.suites ?? []).flatMap((suite) => playwrightFailures(suite)),
      ...(report.errors ?? []).map((error) => `outside tests\n      ${firstLines(error.message)}`),
    ],
  };
}

/**
 * @param {Suite} suite
 * @returns {{ passed: number, failed: number, skipped: number, seconds: number, problem?: string,
 *   failures?: string[] }}
 */
function runSuite(suite) {
  const outputFile = join(resultsDir, `${suite.name}.json`);
  rmSync(outputFile, { force: true });
  console.log(`\n=== ${suite.name}`);
  const { status, seconds } =
    suite.kind === 'vitest'
      ? run(bin('vitest'), [
          'run',
          '--root',
          join('packages', suite.name),
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${outputFile}`,
        ])
      : run(bin('playwright'), ['test', '-c', join('packages', suite.name), '--reporter=list,json'], {
          PLAYWRIGHT_JSON_OUTPUT_NAME: outputFile,
        });
  if (!existsSync(outputFile))
    return { passed: 0, failed: 1, skipped: 0, seconds, problem: `could not run: no JSON report (exit ${status})` };
  const counts = (suite.kind === 'vitest' ? countVitest : countPlaywright)(
    JSON.parse(readFileSync(outputFile, 'utf8')),
  );
  if (counts.passed + counts.failed === 0) return { ...counts, failed: 1, seconds, problem: 'ran zero tests' };
  if (status !== 0 && counts.failed === 0)
    return { ...counts, failed: 1, seconds, problem: `exited with code ${status} although every test passed` };
  return { ...counts, seconds };
}

const wanted = process.env.TEST_SUITES?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = wanted?.filter((name) => !SUITES.some((s) => s.name === name)) ?? [];
if (unknown.length) {
  console.error(
    `TEST_SUITES names unknown suite(s): ${unknown.join(', ')} (known: ${SUITES.map((s) => s.name).join(', ')})`,
  );
  process.exit(2);
}
const chosen = SUITES.filter((s) => !wanted || wanted.includes(s.name));
const present = chosen.filter(exists);
mkdirSync(resultsDir, { recursive: true });

const started = performance.now();
const lines = [];
let failed = 0;
for (const workspace of BUILD_ORDER.filter((w) => present.some((s) => s.needs.includes(w)))) {
  const { note, failed: broken } = build(workspace);
  if (note) lines.push(`  build     ${note}`);
  if (broken) failed++;
}
let passed = 0;
let skipped = 0;
for (const suite of chosen) {
  if (!present.includes(suite)) {
    lines.push(`  ${suite.name.padEnd(9)} not present (no tests yet)`);
    continue;
  }
  const r = runSuite(suite);
  passed += r.passed;
  failed += r.failed;
  skipped += r.skipped;
  const counts = `${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`;
  lines.push(
    `  ${suite.name.padEnd(9)} ${counts.padEnd(34)} ${r.seconds.toFixed(1).padStart(6)} s${r.problem ? `  ${r.problem}` : ''}`,
  );
  for (const failure of r.failures ?? []) lines.push(`    ✗ ${failure}`);
}
if (present.length === 0) {
  lines.push('  no suite to run');
  failed++;
}

console.log(`\n=== summary (${((performance.now() - started) / 1000).toFixed(1)} s; reports in .tmp/test-results/)`);
console.log(lines.join('\n'));
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
