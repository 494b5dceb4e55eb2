import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { call, serverRoot, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * `hello-admin backup FILE` while the server takes a steady stream of writes (registrations): the
 * backup, restored into a new DATA_DIR, holds every write acknowledged before the backup began, and
 * passes SQLite's integrity check; the writes go on, unrefused, while it is taken. SQLite only: on
 * PostgreSQL the command refuses (test/api/cli-backup.test.ts).
 */
const WRITERS = 4;
const PASSWORD = 'Backup-Load-Password-2026';
const ENV = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_LOGIN: '0', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };

describe('hello-admin backup under write load (sqlite)', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };
  const json = (body: unknown) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('restores a backup taken under write load and finds every acknowledged write', async () => {
    const dataDir = tempDir('hello-backup-');
    const server: SpawnedServer = await spawnServer({ dataDir, env: ENV });
    cleanup.push(() => server.kill());

    // The load: WRITERS loops, each registering one account after another until told to stop.
    const acknowledged: string[] = [];
    const refused: string[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i += 1) {
        const email = `load-${w}-${i}@example.com`;
        const res = await call(
          `${server.url}/api/v1/rest-auth/registration/`,
          json({ email, password1: PASSWORD, password2: PASSWORD }),
        );
        if (res.status === 201) acknowledged.push(email);
        else refused.push(`${email}: ${res.status} ${res.body.toString()}`);
      }
    };
    const load = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    try {
      await expect.poll(() => acknowledged.length, { timeout: 30_000, interval: 10 }).toBeGreaterThanOrEqual(40);

      // The backup, as an operator runs it: the built CLI, a process of its own, on the same DATA_DIR.
      // Every write acknowledged before it starts must be in the copy; and the copy must be of a moment
      // after it started (it holds writes acknowledged since), not of an older state such as app.db
      // without its WAL. (The moment the CLI says it starts copying cannot be used as the line: a busy
      // test process may read that line after more writes were acknowledged than the copy holds.)
      const file = path.join(tempDir('hello-backup-file-'), 'app-backup.db');
      const env = { ...process.env, ...ENV, DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' };
      const before = [...acknowledged];
      const backup = execFile(process.execPath, ['dist/cli.js', 'backup', file], { cwd: serverRoot, env });
      let stdout = '';
      backup.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      const [code] = (await once(backup, 'close')) as [number | null];
      expect(code, stdout).toBe(0);
      const during = acknowledged.length - before.length;
      expect(stdout).toContain(`to ${file} (`);
      await new Promise((r) => setTimeout(r, 100));
      stop = true;
      await load;

      expect(refused).toEqual([]);
      expect(during).toBeGreaterThan(0); // the server kept writing while the backup was taken

      const copy = new SQLite(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const stored = new Set(
          (copy.prepare('select email from users').all() as { email: string }[]).map((r) => r.email),
        );
        expect(before.filter((email) => !stored.has(email))).toEqual([]);
        const known = new Set(before);
        expect([...stored].filter((email) => email.startsWith('load-') && !known.has(email)).length).toBeGreaterThan(0);
      } finally {
        copy.close();
      }

      // Restored: the copy as app.db of a new DATA_DIR, served by a new server; each account logs in.
      const restoredDir = tempDir('hello-restored-');
      copyFileSync(file, path.join(restoredDir, 'app.db'));
      const restored = await spawnServer({ dataDir: restoredDir, env: ENV });
      cleanup.push(() => restored.kill());
      const statuses = new Map<number, number>();
      for (let i = 0; i < before.length; i += 8) {
        const answers = await Promise.all(
          before
            .slice(i, i + 8)
            .map((email) => call(`${restored.url}/api/v1/token/`, json({ email, password: PASSWORD }))),
        );
        for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      }
      expect(Object.fromEntries(statuses)).toEqual({ 200: before.length });
    } finally {
      stop = true;
      await load.catch(() => {});
    }
  }, 120_000);
});
