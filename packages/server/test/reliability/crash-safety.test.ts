import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/build.js';
import { createPgDatabase } from '../helpers/pg-database.js';
import { call, formData, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * Issue 5, "Crash safety" / CONTRACT.md section 4: SIGKILL in the middle of a burst of registrations
 * and uploads; after a restart on the same data, every call that was answered with success is there,
 * no news item lacks a file, and no file lacks its row.
 */
const REGISTRATIONS = 40;
const UPLOADS = 40;
const AUTHORS = 4;

const filesUnder = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(path.join(dir, f)).isFile());

describe.each(dialects)('crash safety (%s)', (dialect) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  it('keeps every answered call and leaves no partial news item or orphan file after SIGKILL', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'hello-crash-'));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const env: Record<string, string> = { RATE_LIMIT_REGISTER: '0', RATE_LIMIT_LOGIN: '0', ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' };
    if (dialect === 'postgres') {
      const database = await createPgDatabase();
      cleanup.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    let server: SpawnedServer = await spawnServer({ dataDir, env });
    cleanup.push(() => server.kill());
    const post = (url: string, init: RequestInit) => call(server.url + url, { method: 'POST', ...init });
    const register = (email: string, password: string) =>
      post('/api/v1/rest-auth/registration/', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password1: password, password2: password }) });

    const authors: string[] = [];
    for (let i = 0; i < AUTHORS; i += 1) {
      const res = await register(`author-${i}@example.com`, 'Author-Password-2026');
      expect(res.status).toBe(201);
      authors.push(res.json().key);
    }

    // The burst: everything at once; the server is killed once a third of it has been answered.
    const registered: { email: string; password: string }[] = [];
    const uploaded: { id: number; files: Map<string, Buffer> }[] = [];
    let answered = 0;
    let killed = false;
    const total = REGISTRATIONS + UPLOADS;
    const killAt = Math.floor(total / 3);
    let onAnswer = () => {};
    const killedNow = new Promise<void>((resolve) => {
      onAnswer = () => {
        answered += 1;
        if (answered === killAt && !killed) {
          killed = true;
          process.kill(server.pid, 'SIGKILL');
          resolve();
        }
      };
    });
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < total; i += 1) {
      if (i % 2 === 0 && i / 2 < REGISTRATIONS) {
        const email = `burst-${i}-${randomBytes(3).toString('hex')}@example.com`;
        const password = `Burst-Password-${i}-xyz`;
        work.push(register(email, password).then((res) => {
          if (res.status === 201) registered.push({ email, password });
          onAnswer();
        }, () => {}));
      } else {
        const files = new Map([[`a-${i}.bin`, randomBytes(3000 + i)], [`b-${i}.txt`, Buffer.from(`text ${i} ${randomBytes(8).toString('hex')}`)]]);
        const body = formData({ title: `news ${i}`, content: `burst item ${i}` }, [...files].map(([name, bytes]) => ({ name, type: 'application/octet-stream', bytes })));
        work.push(post('/api/v1/localnews/new', { headers: { authorization: `Token ${authors[i % AUTHORS]}` }, body }).then((res) => {
          if (res.status === 201) uploaded.push({ id: res.json().id, files });
          onAnswer();
        }, () => {}));
      }
    }
    await Promise.race([killedNow, Promise.all(work)]);
    await Promise.all(work);
    await server.exited();
    expect(killed, `the burst finished (${answered} answers) before the kill`).toBe(true);
    expect(registered.length + uploaded.length).toBeGreaterThanOrEqual(killAt - 1);
    console.info(`crash-safety (${dialect}): killed after ${answered} of ${total} answers; ${registered.length} registrations and ${uploaded.length} uploads answered 201`);

    server = await spawnServer({ dataDir, env });
    // Every registration answered 201 can log in.
    const failedLogins: string[] = [];
    for (const { email, password } of registered) {
      const res = await post('/api/v1/token/', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
      if (res.status !== 200) failedLogins.push(`${email}: ${res.status}`);
    }
    expect(failedLogins).toEqual([]);

    // Every upload answered 201 is listed with its files, byte for byte; no item lacks a file.
    const login = await post('/api/v1/token/', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'author-0@example.com', password: 'Author-Password-2026' }) });
    const list = (await call(`${server.url}/api/v1/localnews/`, { headers: { authorization: `Bearer ${login.json().access}` } })).json() as {
      id: number; files: { name: string; url: string }[];
    }[];
    const byId = new Map(list.map((item) => [item.id, item]));
    for (const { id, files } of uploaded) {
      const item = byId.get(id);
      expect(item, `news item ${id} was answered 201 but is gone`).toBeDefined();
      for (const f of item!.files) expect((await call(server.url + f.url)).body.equals(files.get(f.name)!)).toBe(true);
    }
    let listedFiles = 0;
    for (const item of list) {
      expect(item.files.length, `news item ${item.id} is partial`).toBe(2);
      for (const f of item.files) expect((await call(server.url + f.url)).status, `file ${f.name} of item ${item.id}`).toBe(200);
      listedFiles += item.files.length;
    }
    // No orphans: every stored file has its row, and nothing is left in staging.
    const uploads = path.join(dataDir, 'uploads');
    const stored = filesUnder(uploads);
    expect(stored.filter((f) => f.startsWith('.tmp')), 'staged files left after restart').toEqual([]);
    expect(stored.length).toBe(listedFiles);
  }, 180_000);
});
