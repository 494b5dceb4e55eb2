import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/build.js';
import { createPgDatabase } from '../helpers/pg-database.js';
import { call, formData, spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * SIGKILL in the middle of a burst of registrations and uploads, of one of edits and deletions, and of
 * one of account deletions; after a restart on the same data, every call that was answered with success
 * is there, no news item lacks a file, no file lacks its row, and no account is half deleted (docs/api.md, "What is never lost").
 */
const REGISTRATIONS = 40;
const UPLOADS = 40;
const AUTHORS = 4;
const ITEMS_TO_CHANGE = 45;
const ACCOUNTS_TO_DELETE = 12;

const filesUnder = (dir: string): string[] =>
  (readdirSync(dir, { recursive: true }) as string[]).filter((f) => statSync(path.join(dir, f)).isFile());

describe.each(dialects)('crash safety (%s)', (dialect) => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const fn of cleanup.reverse()) await fn();
  });

  /** A DATA_DIR (and on PostgreSQL a database) of the test's own, removed after the suite. */
  async function freshStore(prefix: string): Promise<{ dataDir: string; env: Record<string, string> }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
    // No limits and a cheap hash: the bursts measure crash safety, not throttling or argon2.
    const env: Record<string, string> = {
      RATE_LIMIT_REGISTER: '0',
      RATE_LIMIT_LOGIN: '0',
      ARGON2_MEMORY_KIB: '1024',
      ARGON2_TIME_COST: '1',
      ACCESS_TOKEN_LIFETIME: '3600',
    };
    if (dialect === 'postgres') {
      const database = await createPgDatabase();
      cleanup.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    return { dataDir, env };
  }

  it('keeps every answered call and leaves no partial news item or orphan file after SIGKILL', async () => {
    const { dataDir, env } = await freshStore('hello-crash-');
    let server: SpawnedServer = await spawnServer({ dataDir, env });
    cleanup.push(() => server.kill());
    const post = (url: string, init: RequestInit) => call(server.url + url, { method: 'POST', ...init });
    const register = (email: string, password: string) =>
      post('/api/v1/rest-auth/registration/', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password1: password, password2: password }),
      });

    const authors: string[] = [];
    for (let i = 0; i < AUTHORS; i += 1) {
      const res = await register(`author-${i}@example.com`, 'Author-Password-2026');
      expect(res.status).toBe(201);
      authors.push(res.json<{ key: string }>().key);
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
        work.push(
          register(email, password).then(
            (res) => {
              if (res.status === 201) registered.push({ email, password });
              onAnswer();
            },
            () => {},
          ),
        );
      } else {
        const files = new Map([
          [`a-${i}.bin`, randomBytes(3000 + i)],
          [`b-${i}.txt`, Buffer.from(`text ${i} ${randomBytes(8).toString('hex')}`)],
        ]);
        const body = formData(
          { title: `news ${i}`, content: `burst item ${i}` },
          [...files].map(([name, bytes]) => ({ name, type: 'application/octet-stream', bytes })),
        );
        work.push(
          post('/api/v1/localnews/new', { headers: { authorization: `Token ${authors[i % AUTHORS]}` }, body }).then(
            (res) => {
              if (res.status === 201) uploaded.push({ id: res.json<{ id: number }>().id, files });
              onAnswer();
            },
            () => {},
          ),
        );
      }
    }
    await Promise.race([killedNow, Promise.all(work)]);
    await Promise.all(work);
    await server.exited();
    expect(killed, `the burst finished (${answered} answers) before the kill`).toBe(true);
    expect(registered.length + uploaded.length).toBeGreaterThanOrEqual(killAt - 1);
    console.info(
      `crash-safety (${dialect}): killed after ${answered} of ${total} answers; ${registered.length} registrations and ${uploaded.length} uploads answered 201`,
    );

    server = await spawnServer({ dataDir, env });
    // Every registration answered 201 can log in.
    const failedLogins: string[] = [];
    for (const { email, password } of registered) {
      const res = await post('/api/v1/token/', {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (res.status !== 200) failedLogins.push(`${email}: ${res.status}`);
    }
    expect(failedLogins).toEqual([]);

    // Every upload answered 201 is listed with its files, byte for byte; no item lacks a file.
    const login = await post('/api/v1/token/', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'author-0@example.com', password: 'Author-Password-2026' }),
    });
    const list = (
      await call(`${server.url}/api/v1/localnews/`, {
        headers: { authorization: `Bearer ${login.json<{ access: string }>().access}` },
      })
    ).json() as {
      id: number;
      files: { name: string; url: string }[];
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
      for (const f of item.files)
        expect((await call(server.url + f.url)).status, `file ${f.name} of item ${item.id}`).toBe(200);
      listedFiles += item.files.length;
    }
    // No orphans: every stored file has its row, and nothing is left in staging.
    const uploads = path.join(dataDir, 'uploads');
    const stored = filesUnder(uploads);
    expect(
      stored.filter((f) => f.startsWith('.tmp')),
      'staged files left after restart',
    ).toEqual([]);
    expect(stored.length).toBe(listedFiles);
  }, 180_000);
  it('leaves edits and deletions whole after SIGKILL: no row without its file, no file without its row', async () => {
    const { dataDir, env } = await freshStore('hello-crash-edit-');
    let server: SpawnedServer = await spawnServer({ dataDir, env });
    cleanup.push(() => server.kill());
    const json = (body: object) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const credentials = { email: 'editor@example.com', password: 'Editor-Password-2026' };
    const registration = { email: credentials.email, password1: credentials.password, password2: credentials.password };
    const key = (
      await call(`${server.url}/api/v1/rest-auth/registration/`, { method: 'POST', ...json(registration) })
    ).json<{ key: string }>().key;
    const access = async () =>
      (await call(`${server.url}/api/v1/token/`, { method: 'POST', ...json(credentials) })).json<{ access: string }>()
        .access;

    // Items to work on, each with two files.
    type Item = { id: number; files: { id: number; name: string }[] };
    const items: Item[] = [];
    for (let i = 0; i < ITEMS_TO_CHANGE; i += 1) {
      const files = [0, 1].map((n) => ({
        name: `f${i}-${n}.bin`,
        type: 'application/octet-stream',
        bytes: randomBytes(2000 + n),
      }));
      const res = await call(`${server.url}/api/v1/localnews/new`, {
        method: 'POST',
        headers: { authorization: `Token ${key}` },
        body: formData({ title: `item ${i}`, content: 'to be changed' }, files),
      });
      expect(res.status).toBe(201);
      items.push(res.json());
    }
    const bearer = { authorization: `Bearer ${await access()}` };

    // The burst: every item is edited (one file out, one in) or deleted, all at once; the deletions
    // (far quicker) start once the first edit is answered, and the kill comes after a third of the edits.
    const edited = new Map<number, { title: string; name: string; bytes: Buffer }>();
    const deleted: number[] = [];
    const toEdit = items.filter((_, i) => i % 3 !== 2);
    const toDelete = items.filter((_, i) => i % 3 === 2);
    let answered = 0;
    let killed = false;
    let startDeletions = () => {};
    const deletionsMayStart = new Promise<void>((resolve) => (startDeletions = resolve));
    const answer = () => {
      answered += 1;
      startDeletions();
      if (answered === Math.floor(toEdit.length / 3) && !killed) {
        killed = true;
        process.kill(server.pid, 'SIGKILL');
      }
    };
    const url = (item: Item) => `${server.url}/api/v1/localnews/${item.id}/`;
    const work = toEdit.map((item) => {
      const change = { title: `edited ${item.id}`, name: `new-${item.id}.bin`, bytes: randomBytes(3000 + item.id) };
      const body = formData({ title: change.title }, [
        { name: change.name, type: 'application/octet-stream', bytes: change.bytes },
      ]);
      body.append('remove_files', String(item.files[0]!.id));
      return call(url(item), { method: 'PATCH', headers: bearer, body }).then(
        (res) => {
          if (res.status === 200) edited.set(item.id, change);
          answer();
        },
        () => {},
      );
    });
    const remove = (item: Item) =>
      call(url(item), { method: 'DELETE', headers: bearer }).then(
        (res) => void (res.status === 204 && deleted.push(item.id)),
        () => {},
      );
    work.push(deletionsMayStart.then(async () => void (await Promise.all(toDelete.map(remove)))));
    await Promise.all(work);
    await server.exited();
    expect(killed, `the burst finished (${answered} edits answered) before the kill`).toBe(true);
    expect(edited.size).toBeGreaterThan(0);
    console.info(
      `crash-safety edits (${dialect}): killed after ${answered} edits answered; ${edited.size} edits and ${deleted.length} deletions answered`,
    );

    server = await spawnServer({ dataDir, env });
    const auth = { authorization: `Bearer ${await access()}` };
    for (const id of deleted)
      expect(
        (await call(`${server.url}/api/v1/localnews/${id}/`, { headers: auth })).status,
        `deleted item ${id}`,
      ).toBe(404);
    let rowFiles = 0;
    for (const item of items) {
      const res = await call(url(item), { headers: auth });
      if (res.status === 404) continue; // deleted, answered or not
      const now = res.json() as { title: string; files: { id: number; name: string; url: string }[] };
      const change = edited.get(item.id);
      if (change) {
        expect(now.title).toBe(change.title);
        expect(now.files.map((f) => f.id)).not.toContain(item.files[0]!.id);
        expect(
          (await call(server.url + now.files.find((f) => f.name === change.name)!.url)).body.equals(change.bytes),
        ).toBe(true);
      }
      // Whatever happened, an item is whole: two files, each one there.
      expect(now.files.length, `item ${item.id}`).toBe(2);
      for (const file of now.files)
        expect((await call(server.url + file.url)).status, `file ${file.name} of item ${item.id}`).toBe(200);
      rowFiles += now.files.length;
    }
    const stored = filesUnder(path.join(dataDir, 'uploads'));
    expect(
      stored.filter((f) => f.startsWith('.tmp')),
      'staged files left after restart',
    ).toEqual([]);
    expect(stored.length, 'files on disk without a row').toBe(rowFiles);
  }, 180_000);

  it('deletes accounts whole or not at all under SIGKILL: no half-deleted account, no orphan file', async () => {
    const { dataDir, env } = await freshStore('hello-crash-delete-');
    let server: SpawnedServer = await spawnServer({ dataDir, env });
    cleanup.push(() => server.kill());
    const json = (body: object) => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const password = 'Leaving-Password-2026';
    const login = async (email: string) =>
      call(`${server.url}/api/v1/token/`, { method: 'POST', ...json({ email, password }) });

    // Accounts to delete, each with two items of two files.
    type Account = { email: string; access: string; items: number[] };
    const accounts: Account[] = [];
    for (let a = 0; a < ACCOUNTS_TO_DELETE; a += 1) {
      const email = `leaving-${a}@example.com`;
      const registration = { email, password1: password, password2: password };
      const key = (
        await call(`${server.url}/api/v1/rest-auth/registration/`, { method: 'POST', ...json(registration) })
      ).json<{ key: string }>().key;
      const items: number[] = [];
      for (let i = 0; i < 2; i += 1) {
        const files = [0, 1].map((n) => ({
          name: `a${a}-${i}-${n}.bin`,
          type: 'application/octet-stream',
          bytes: randomBytes(1500 + n),
        }));
        const res = await call(`${server.url}/api/v1/localnews/new`, {
          method: 'POST',
          headers: { authorization: `Token ${key}` },
          body: formData({ title: `item ${a}-${i}`, content: 'mine' }, files),
        });
        expect(res.status).toBe(201);
        items.push(res.json<{ id: number }>().id);
      }
      accounts.push({ email, access: (await login(email)).json<{ access: string }>().access, items });
    }

    // Every account is deleted at once; the kill comes with the first answer.
    const answered = new Set<string>();
    let killed = false;
    await Promise.all(
      accounts.map((account) =>
        call(`${server.url}/api/v1/user/delete/`, {
          method: 'POST',
          headers: { authorization: `Bearer ${account.access}`, 'content-type': 'application/json' },
          body: JSON.stringify({ password }),
        }).then(
          (res) => {
            if (res.status === 204) answered.add(account.email);
            if (!killed) {
              killed = true;
              process.kill(server.pid, 'SIGKILL');
            }
          },
          () => {},
        ),
      ),
    );
    await server.exited();
    expect(answered.size, 'deletions answered before the kill').toBeGreaterThan(0);
    expect(answered.size, 'some deletions were cut off').toBeLessThan(accounts.length);

    server = await spawnServer({ dataDir, env });
    const reader = { email: 'reader@example.com', password1: password, password2: password };
    await call(`${server.url}/api/v1/rest-auth/registration/`, { method: 'POST', ...json(reader) });
    const auth = { authorization: `Bearer ${(await login(reader.email)).json<{ access: string }>().access}` };
    let rowFiles = 0;
    let gone = 0;
    for (const account of accounts) {
      const status = (await login(account.email)).status;
      const items = await Promise.all(
        account.items.map((id) => call(`${server.url}/api/v1/localnews/${id}/`, { headers: auth })),
      );
      if (answered.has(account.email)) expect(status, `${account.email}: deletion answered`).toBe(401);
      if (status === 401) {
        gone += 1;
        expect(
          items.map((res) => res.status),
          `${account.email} is gone, and so are its items`,
        ).toEqual([404, 404]);
        expect(
          (
            await call(`${server.url}/api/v1/rest-auth/registration/`, {
              method: 'POST',
              ...json({ email: account.email, password1: password, password2: password }),
            })
          ).status,
        ).toBe(201);
        continue;
      }
      expect(status, `${account.email} is whole`).toBe(200);
      for (const res of items) {
        expect(res.status).toBe(200);
        const files = res.json<{ files: { url: string }[] }>().files;
        expect(files).toHaveLength(2);
        for (const file of files) expect((await call(server.url + file.url)).status).toBe(200);
        rowFiles += files.length;
      }
    }
    console.info(`crash-safety account deletions (${dialect}): ${answered.size} answered, ${gone} gone after restart`);
    const stored = filesUnder(path.join(dataDir, 'uploads'));
    expect(
      stored.filter((f) => f.startsWith('.tmp')),
      'staged files left after restart',
    ).toEqual([]);
    expect(stored.length, 'files on disk without a row').toBe(rowFiles);
  }, 180_000);
});
