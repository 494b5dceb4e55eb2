import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stagingHost } from '../../src/storage/staged-files.js';
import { dialects } from '../helpers/build.js';
import { createPgDatabase } from '../helpers/pg-database.js';
import { call, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * Several instances may share one DATA_DIR (and one database) and start at the same moment (README,
 * "Configuration"). Each start sweeps what dead processes left in the stores' staging folders; two
 * instances sweeping the same folders must not trip over each other (one removes a folder the other
 * is reading), nor over anything else done at a first start: the secret key file (the two must agree
 * on one), SQLite's journal mode (db/database.ts, useWal), the database's schema (SQLite:
 * db/migrate.ts; PostgreSQL: the migrator's advisory lock), the demo PDFs. Pairs of instances start,
 * the two of a pair at the same moment, each pair on a DATA_DIR of its own with dead staging folders:
 * fresh ones (a first start's work too); then some of them again, now used, with committed files
 * caught in a dead staging folder. Every instance must serve, and exit 0 on SIGTERM.
 */
const PAIRS = 10;
/** The pairs started again on their used DATA_DIRs: the publish race, with the sweep's again. */
const RESTARTED_PAIRS = 3;
/** Pairs started together: the pairs share nothing, and more at once only slows each on 2 cores. */
const PAIRS_AT_ONCE = 2;
const DEAD_FOLDERS = 6;
const FILES_PER_FOLDER = 5;

/** A pid that no process has any more (one that just ran and exited). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  return child.pid!;
}

/** Staging folders as the stores make them (`<pid>.<hex>@<host>`, storage/staged-files.ts), of processes that died. */
function plantDeadStaging(dataDir: string, pids: number[], withOrphans: boolean): string[] {
  const planted: string[] = [];
  for (const store of ['uploads', 'pdfs']) {
    pids.forEach((pid, i) => {
      const folder = path.join(dataDir, store, '.tmp', `${pid}.${(0xa0b0c0 + i).toString(16)}@${stagingHost}`);
      mkdirSync(folder, { recursive: true });
      for (let f = 0; f < FILES_PER_FOLDER; f += 1)
        writeFileSync(path.join(folder, `${f.toString(16).padStart(32, '0')}.pdf`), `left by ${pid}`);
      planted.push(folder);
    });
    // A published file with no row (its transaction never committed), on a DATA_DIR in use: a new
    // one holding files is refused (storage/store-identity.ts). And a stray file in .tmp.
    if (withOrphans) writeFileSync(path.join(dataDir, store, 'ffffffffffffffffffffffffffffffff'), 'orphan');
    writeFileSync(path.join(dataDir, store, '.tmp', 'stray'), 'stray');
  }
  return planted;
}

interface Pair {
  dataDir: string;
  env: Record<string, string>;
}

/** Both instances of each pair at once; fails with what each one that did not start printed. */
async function startPairs(pairs: Pair[]): Promise<SpawnedServer[][]> {
  const starts = await Promise.allSettled(
    pairs.flatMap(({ dataDir, env }) => [0, 1].map(() => spawnServer({ dataDir, env, readyTimeoutMs: 90_000 }))),
  );
  const failures = starts.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
  if (failures.length > 0) {
    await Promise.all(starts.map((s) => (s.status === 'fulfilled' ? s.value.kill() : undefined)));
    // One line each, as the test summary shows a failure's first lines only, cut at 300 characters:
    // what went wrong (the first line) and the end of what the instance printed, where its error is.
    const printed = failures.map((failure) => {
      const [what, ...rest] = failure.trim().split('\n');
      return `${what} ${rest.join(' | ').slice(-240)}`;
    });
    expect.fail(`${failures.length} of ${starts.length} instances did not start:\n${printed.join('\n')}`);
  }
  const servers = starts.map((s) => (s as PromiseFulfilledResult<SpawnedServer>).value);
  return pairs.map((_, i) => [servers[2 * i]!, servers[2 * i + 1]!]);
}

/** SIGTERM to every instance; each must exit 0 (its last output otherwise). */
async function stopPairs(pairs: SpawnedServer[][]): Promise<void> {
  const exits = await Promise.all(
    pairs.flat().map(async (server) => {
      server.child.kill('SIGTERM');
      const exit = await server.exited();
      return exit.code === 0 ? 'exit 0' : `${JSON.stringify(exit)}: ${server.output().slice(-800)}`;
    }),
  );
  expect(exits).toEqual(Array(exits.length).fill('exit 0'));
}

/**
 * Starts the pairs PAIRS_AT_ONCE at a time, runs `check` on each group's instances while they serve,
 * then stops them. Returns the slowest start of a group.
 */
async function inGroups(
  pairs: Pair[],
  running: Set<SpawnedServer>,
  check: (group: SpawnedServer[][], first: number) => Promise<void>,
): Promise<number> {
  let slowest = 0;
  for (let first = 0; first < pairs.length; first += PAIRS_AT_ONCE) {
    const began = Date.now();
    const group = await startPairs(pairs.slice(first, first + PAIRS_AT_ONCE));
    slowest = Math.max(slowest, Date.now() - began);
    for (const server of group.flat()) running.add(server);
    await check(group, first);
    await stopPairs(group);
    for (const server of group.flat()) running.delete(server);
  }
  return slowest;
}

describe.each(dialects)('instances starting at the same moment on one DATA_DIR (%s)', (dialect) => {
  const pairs: (Pair & { planted: string[] })[] = [];
  const running = new Set<SpawnedServer>();
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await Promise.all([...running].map((server) => server.kill()));
    for (const pair of pairs) rmSync(pair.dataDir, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });
  const json = { 'content-type': 'application/json' };
  const leftBehind = (of: typeof pairs) => of.flatMap(({ planted }) => planted.filter((folder) => existsSync(folder)));

  it(`starts ${PAIRS} pairs, each at once, on fresh DATA_DIRs with dead staging folders: every instance serves, and exits 0 on SIGTERM`, async () => {
    const began = Date.now();
    const pids = await Promise.all(Array.from({ length: DEAD_FOLDERS }, deadPid));
    for (let i = 0; i < PAIRS; i += 1) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-pair-'));
      const env: Record<string, string> = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
      pairs.push({ dataDir, env, planted: plantDeadStaging(dataDir, pids, false) });
      if (dialect === 'postgres') {
        const database = await createPgDatabase();
        drops.push(database.drop);
        env.DATABASE_URL = database.url;
      }
    }

    const slowest = await inGroups(pairs, running, async (group, first) => {
      const answers = await Promise.all(
        group.flat().map(async (server) => (await call(`${server.url}/api/openapi.json`)).status),
      );
      expect(answers).toEqual(Array(answers.length).fill(200));
      // The two of a pair share the secret key (made by whichever came first): a refresh token that
      // one issues, the other takes.
      const refreshed = await Promise.all(
        group.map(async ([one, other], i) => {
          const password = 'Pair-Password-2026';
          const registration = { email: `pair-${first + i}@example.com`, password1: password, password2: password };
          const reg = await call(`${one!.url}/api/v1/rest-auth/registration/`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify(registration),
          });
          const refresh = await call(`${other!.url}/api/v1/token/refresh/`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ refresh: reg.json<{ key: string }>().key }),
          });
          return `${reg.status} ${refresh.status}`;
        }),
      );
      expect(refreshed).toEqual(Array(group.length).fill('201 200'));
    });
    expect(leftBehind(pairs)).toEqual([]);
    console.info(
      `concurrent-start (${dialect}, first start): ${2 * pairs.length} instances, all served and exited 0; slowest pair start ${slowest} ms; ${Date.now() - began} ms in all`,
    );
  }, 600_000);

  it(`starts ${RESTARTED_PAIRS} of them again, each pair at once, on their DATA_DIRs, with the demo PDFs caught between commit and publish: every instance serves them`, async () => {
    const began = Date.now();
    const pids = await Promise.all(Array.from({ length: DEAD_FOLDERS }, deadPid));
    const restarted = pairs.slice(0, RESTARTED_PAIRS);
    expect(restarted).toHaveLength(RESTARTED_PAIRS);
    for (const pair of restarted) {
      pair.planted = plantDeadStaging(pair.dataDir, pids, true);
      // A crash after the rows' commit and before the files' publish: the sweep must publish them,
      // whichever instance of the pair gets there first.
      const pdfs = path.join(pair.dataDir, 'pdfs');
      const caught = path.join(pdfs, '.tmp', `${pids[0]}.c0ffee@${stagingHost}`);
      mkdirSync(caught, { recursive: true });
      const published = readdirSync(pdfs).filter((n) => n.endsWith('.pdf'));
      // The demo PDFs the first start made: without them this would test a first start again.
      expect(published).toHaveLength(3);
      for (const name of published) renameSync(path.join(pdfs, name), path.join(caught, name));
      pair.planted.push(caught);
    }

    const slowest = await inGroups(restarted, running, async (group) => {
      const downloads = await Promise.all(
        group.flat().map(async (server) => {
          const statuses = [];
          for (const id of [1, 2, 3]) statuses.push((await call(`${server.url}/download_pdf_by_id/${id}`)).status);
          return statuses.join(' ');
        }),
      );
      expect(downloads).toEqual(Array(downloads.length).fill('200 200 200'));
    });
    // Only the pairs started again: the others' folders were checked above.
    expect(leftBehind(restarted)).toEqual([]);
    const orphans = restarted.flatMap(({ dataDir }) =>
      ['uploads', 'pdfs'].map((store) => path.join(dataDir, store, 'ffffffffffffffffffffffffffffffff')),
    );
    expect(orphans.filter((file) => existsSync(file))).toEqual([]);
    console.info(
      `concurrent-start (${dialect}, restart): ${2 * restarted.length} instances, all served and exited 0; slowest pair start ${slowest} ms; ${Date.now() - began} ms in all`,
    );
  }, 600_000);
});
