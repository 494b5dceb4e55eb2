import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteFile } from '../../src/db/database.js';
import { ensureBuilt, serverRoot } from '../helpers/spawn-server.js';

/**
 * Processes opening one new SQLite file at the same moment (db/database.ts, useWal): each turns its
 * journal to WAL, and SQLite answers the ones that lose the race SQLITE_BUSY at once, without its busy
 * timeout. Without useWal's wait, two or three in 80 such opens failed, and now and then one
 * instance of two starting at once on a fresh DATA_DIR (concurrent-start.test.ts).
 */
const ROUNDS = 30;
const PROCESSES = 4;

/**
 * Loads the module, says "ready", reads from stdin the moment to open at (ms since the epoch), waits
 * for it, opens the database in DATA_DIR, prints "opened" or why not.
 */
const opener = (databaseModule: string) => `
  const { openDatabase } = await import(${JSON.stringify(databaseModule)});
  console.log('ready');
  process.stdin.setEncoding('utf8');
  let at = '';
  for await (const chunk of process.stdin) at += chunk;
  while (Date.now() < Number(at)) {}
  try {
    await openDatabase({ dataDir: process.argv[1], databaseUrl: undefined }).close();
    console.log('opened');
  } catch (error) {
    console.log(error.code ?? error.message);
  }
`;

describe('processes opening one new SQLite file at once', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`opens it in every one of ${PROCESSES} processes, in WAL mode, ${ROUNDS} times over`, async () => {
    ensureBuilt();
    const script = opener(pathToFileURL(path.join(serverRoot, 'dist/db/database.js')).href);
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-first-open-'));
      dirs.push(dataDir);
      const children = Array.from({ length: PROCESSES }, () => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let out = '';
        // Ready, or gone without being so (its answer then says why).
        const ready = new Promise<void>((resolve) => {
          child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
            out += chunk;
            if (out.startsWith('ready\n')) resolve();
          });
          child.once('close', () => resolve());
        });
        child.stdin.on('error', () => {});
        const answer = once(child, 'close').then(() => out.replace(/^ready\n/, '').trim());
        return { child, ready, answer };
      });
      // Every process has loaded node and the module; they all open 50 ms from now.
      await Promise.all(children.map(({ ready }) => ready));
      const at = String(Date.now() + 50);
      for (const { child } of children) child.stdin.end(at);
      const answers = await Promise.all(children.map(({ answer }) => answer));
      // WAL is kept in the file: whoever set it, it is set.
      const file = new SQLite(sqliteFile(dataDir), { fileMustExist: true });
      answers.push(`journal ${String(file.pragma('journal_mode', { simple: true }))}`);
      file.close();
      outcomes.push(...answers);
    }
    expect(outcomes.filter((outcome) => !['opened', 'journal wal'].includes(outcome))).toEqual([]);
    expect(outcomes).toHaveLength(ROUNDS * (PROCESSES + 1));
  }, 120_000);
});
