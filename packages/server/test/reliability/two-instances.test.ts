import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiPaths, userSessionPath, type SessionInfo, downloadPdfPath, newsItemPath } from '@hello/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../helpers/build.js';
import { createPgDatabase } from '../helpers/pg-database.js';
import { call, formData, spawnServer, type HttpAnswer, type SpawnedServer } from '../helpers/spawn-server.js';

/**
 * Two instances on one database (PostgreSQL, or SQLite in the DATA_DIR) and one DATA_DIR, behind a
 * round-robin proxy, behave as one (README, "Configuration"; docs/api.md, "What is never lost"):
 * whatever one instance is told, the other knows at once. Each answer through the proxy says which
 * instance gave it, and every call below is checked to have gone to the other instance than the call
 * before it; but for the writes made at once, sent to each instance directly.
 */
const LOGIN_LIMIT = 4;

interface RoundRobin {
  url: string;
  /** The instance that answered each request, in order ('a' or 'b'). */
  served: string[];
  close(): Promise<void>;
}

/** A small HTTP proxy that sends each request to the next upstream in turn, and says which one answered. */
async function roundRobin(upstreams: Record<string, string>): Promise<RoundRobin> {
  const names = Object.keys(upstreams);
  const served: string[] = [];
  let next = 0;
  const server = http.createServer((request, response) => {
    const name = names[next++ % names.length]!;
    served.push(name);
    const target = new URL(request.url ?? '/', upstreams[name]);
    const upstream = http.request(
      target,
      { method: request.method, headers: { ...request.headers, host: target.host } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-instance': name });
        answer.pipe(response);
      },
    );
    upstream.on('error', () => {
      response.writeHead(502).end();
    });
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects)('two instances behind a round-robin proxy (%s)', (dialect) => {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  let dataDir: string;
  let a: SpawnedServer;
  let b: SpawnedServer;
  let proxy: RoundRobin;

  beforeAll(async () => {
    database = dialect === 'postgres' ? await createPgDatabase() : undefined;
    dataDir = mkdtempSync(path.join(tmpdir(), 'hello-two-instances-'));
    const env = { ...(database && { DATABASE_URL: database.url }), RATE_LIMIT_LOGIN: `${LOGIN_LIMIT}/900` };
    // The first start writes DATA_DIR's secret key and runs the migrations; the second finds both.
    a = await spawnServer({ dataDir, env });
    b = await spawnServer({ dataDir, env });
    proxy = await roundRobin({ a: a.url, b: b.url });
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all([a?.kill(), b?.kill()]);
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** One call through the proxy; it must have gone to the other instance than the call before. */
  async function through(url: string, init: RequestInit = {}): Promise<HttpAnswer> {
    const before = proxy.served.at(-1);
    const answer = await call(proxy.url + url, init);
    expect(answer.headers.get('x-instance')).toBe(proxy.served.at(-1));
    if (before) expect(proxy.served.at(-1)).not.toBe(before);
    return answer;
  }
  const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    through(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('registers on one, logs in and reads on the other, uploads on one and downloads on the other, logs out on one and is refused on the other', async () => {
    const email = 'two-instances@example.com';
    const password = 'Two-Instances-Password-2026';

    const registered = await postJson(apiPaths.registration, { email, password1: password, password2: password });
    expect(registered.status).toBe(201);
    const { key } = registered.json<{ key: string }>();

    const refreshed = await postJson(apiPaths.tokenRefresh, { refresh: key });
    expect(refreshed.status).toBe(200);
    const { access } = refreshed.json<{ access: string }>();
    const bearer = { authorization: `Bearer ${access}` };

    const profile = await through(apiPaths.userProfile, { headers: bearer });
    expect(profile.status).toBe(200);
    expect(profile.json<{ email: string }>().email).toBe(email);

    // Both instances keep the list's first page as bytes from here on.
    for (let read = 0; read < 2; read += 1)
      expect((await through(apiPaths.localNews, { headers: bearer })).status).toBe(200);

    const bytes = new TextEncoder().encode('Minutes of the meeting, kept on the shared DATA_DIR.\n');
    const posted = await through(apiPaths.localNewsNew, {
      method: 'POST',
      headers: { authorization: `Token ${key}` },
      body: formData({ title: 'Posted on one instance', content: 'Read on the other.' }, [
        { name: 'minutes.txt', type: 'text/plain', bytes },
      ]),
    });
    expect(posted.status).toBe(201);
    const item = posted.json<{ id: number; files: { url: string }[] }>();

    // Each instance's kept page knows of the post at once, made on one of them.
    for (let read = 0; read < 2; read += 1) {
      const list = await through(apiPaths.localNews, { headers: bearer });
      expect(list.json<{ id: number }[]>().map((each) => each.id)).toContain(item.id);
    }
    expect((await through(newsItemPath(item.id), { headers: bearer })).json<{ id: number }>().id).toBe(item.id);
    const download = await through(item.files[0]!.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(download.body)).toEqual(bytes);

    const pdf = await through(downloadPdfPath(1));
    expect(pdf.status).toBe(200);
    expect(pdf.body.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const loggedOut = await postJson(apiPaths.logout, {}, { authorization: `Token ${key}` });
    expect(loggedOut.status).toBe(200);
    // The session has ended for both instances: its refresh token and its access token alike.
    expect((await postJson(apiPaths.tokenRefresh, { refresh: key })).status).toBe(401);
    expect((await through(apiPaths.userProfile, { headers: bearer })).status).toBe(401);
  });

  it('ends a session from the account center on one instance, and the other refuses it at once', async () => {
    const email = 'two-devices@example.com';
    const password = 'Two-Devices-Password-2026';
    expect((await postJson(apiPaths.registration, { email, password1: password, password2: password })).status).toBe(
      201,
    );
    const signIn = async () => (await postJson(apiPaths.token, { email, password })).json<{ access: string }>().access;
    const phone = { authorization: `Bearer ${await signIn()}` };
    const laptop = { authorization: `Bearer ${await signIn()}` };
    const sessions = (await through(apiPaths.userSessions, { headers: phone })).json<SessionInfo[]>();
    const phoneSession = sessions.find((each) => each.current)!;
    // Every call goes to the other instance than the one before: the end on one, the refusal on the other.
    const ended = await through(userSessionPath(phoneSession.id), { method: 'DELETE', headers: laptop });
    expect(ended.status).toBe(204);
    expect((await through(apiPaths.userProfile, { headers: phone })).status).toBe(401);
    expect((await through(apiPaths.userProfile, { headers: phone })).status).toBe(401);
    expect((await through(apiPaths.userProfile, { headers: laptop })).status).toBe(200);
  });

  it('counts failed logins on both instances against one limit', async () => {
    const email = 'guessed@example.com';
    const password = 'Guessed-Password-2026';
    expect((await postJson(apiPaths.registration, { email, password1: password, password2: password })).status).toBe(
      201,
    );
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LOGIN_LIMIT; attempt += 1) {
      statuses.push((await postJson(apiPaths.token, { email, password: 'not-the-password' })).status);
    }
    // Each instance saw only half of the guesses; the limit counted all of them.
    expect(statuses).toEqual([...Array<number>(LOGIN_LIMIT).fill(401), 429]);
  });

  it('takes writes made on both instances at once: each answers as it would alone, and none is lost', async () => {
    const email = 'both-at-once@example.com';
    const password = 'Both-At-Once-Password-2026';
    const registered = await postJson(apiPaths.registration, { email, password1: password, password2: password });
    expect(registered.status).toBe(201);
    const { key } = registered.json<{ key: string }>();
    const { access } = (await postJson(apiPaths.tokenRefresh, { refresh: key })).json<{ access: string }>();
    const bearer = { authorization: `Bearer ${access}` };
    const post = (server: SpawnedServer, title: string) =>
      call(server.url + apiPaths.localNewsNew, {
        method: 'POST',
        headers: { authorization: `Token ${key}` },
        body: formData({ title, content: 'Posted while the other instance writes.' }, [
          { name: 'note.txt', type: 'text/plain', bytes: new TextEncoder().encode(title) },
        ]),
      });
    const edit = (server: SpawnedServer, id: number, title: string) =>
      call(server.url + newsItemPath(id), {
        method: 'PATCH',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
    const items: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const posted = await post(a, `To be edited ${i}`);
      expect(posted.status).toBe(201);
      items.push(posted.json<{ id: number }>().id);
    }

    // On each instance at once: two items edited over and over (each edit reads the item, then
    // writes), and new items posted. The answers that are not what a lone instance gives:
    const EDITS = 40;
    const POSTS = 10;
    const unexpected = async (expected: number, calls: (() => Promise<HttpAnswer>)[]) => {
      const statuses: number[] = [];
      for (const make of calls) statuses.push((await make()).status);
      return statuses.filter((status) => status !== expected);
    };
    const writers = [a, b].flatMap((server, s) => [
      ...[0, 1].map((k) => {
        const id = items[2 * s + k]!;
        return unexpected(
          200,
          Array.from({ length: EDITS }, (_, e) => () => edit(server, id, `Item ${id}, edit ${e}`)),
        );
      }),
      unexpected(
        201,
        Array.from({ length: POSTS }, (_, p) => () => post(server, `Posted at once on ${s}, #${p}`)),
      ),
    ]);
    expect((await Promise.all(writers)).flat()).toEqual([]);

    for (const id of items)
      expect((await call(a.url + newsItemPath(id), { headers: bearer })).json<{ title: string }>().title).toBe(
        `Item ${id}, edit ${EDITS - 1}`,
      );
    const list = await call(`${b.url}${apiPaths.localNews}?limit=100`, { headers: bearer });
    const titles = list.json<{ title: string }[]>().map((each) => each.title);
    expect(titles.filter((title) => title.startsWith('Posted at once on ')).sort()).toEqual(
      [0, 1].flatMap((s) => Array.from({ length: POSTS }, (_, p) => `Posted at once on ${s}, #${p}`)).sort(),
    );
  });
});
