import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsItemPath, type NewsItem } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { deleteNewsItem, insertNewsItem } from '../../src/repositories/news.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { bearer, createUser, type TestUser } from '../helpers/users.js';

const LIST = '/api/v1/localnews/';

/** A `Link: <…>; rel="next"` header's URL, or undefined. */
const nextOf = (link: string | string[] | number | undefined) =>
  typeof link === 'string' ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;

/** The paged list (docs/api.md, "Local news"): limits, cursors, Link headers, compression. */
describe.each(dialects)('the news list, a page at a time (%s)', (dialect) => {
  let t: TestApp;
  let other: TestApp['app'];
  let alice: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { ACCESS_TOKEN_LIFETIME: '3600' });
    other = await buildApp(t.config); // a second instance on the same data: changes come from there too
    alice = await createUser(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const base = Date.parse('2026-01-01T00:00:00.000Z');
  /** Items straight through the repository, fast; `second` sets created_at, so several can share one. */
  const insert = async (app: TestApp['app'], second: number, title = `item at ${second}`) =>
    (
      await insertNewsItem(
        app.db,
        { authorId: alice.userId, title, content: 'c', createdAt: new Date(base + second * 1000).toISOString() },
        [],
      )
    ).id;
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...bearer(alice), ...headers } });
  const clear = async () => {
    for (const { id } of await t.app.db.selectFrom('news_items').select('id').execute())
      await deleteNewsItem(t.app.db, id);
  };

  /** Every page from the first, following Link headers; `between` runs after each page. */
  async function walk(limit: number, between: () => Promise<void> = async () => {}) {
    const pages: NewsItem[][] = [];
    let url: string | undefined = `${LIST}?limit=${limit}`;
    while (url) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      pages.push(res.json<NewsItem[]>());
      url = nextOf(res.headers.link);
      if (url) {
        expect(url).toMatch(new RegExp(`^/api/v1/localnews/\\?limit=${limit}&before=[\\w-]+$`));
        await between();
      }
    }
    return pages;
  }

  it('pages newest first by created_at, then id, with a Link to the next page until the last', async () => {
    await clear();
    const ids = [];
    for (const second of [1, 2, 2, 2, 3, 4, 4]) ids.push(await insert(t.app, second));
    const newestFirst = [ids[6], ids[5], ids[4], ids[3], ids[2], ids[1], ids[0]];
    const pages = await walk(3);
    expect(pages.map((page) => page.map((item) => item.id))).toEqual([
      newestFirst.slice(0, 3),
      newestFirst.slice(3, 6),
      newestFirst.slice(6),
    ]);
    // A page that ends exactly at the last item has no Link.
    const exact = await walk(7);
    expect(exact).toHaveLength(1);
    expect(exact[0]!.map((item) => item.id)).toEqual(newestFirst);
  });

  it('answers 50 items by default and at most 100', async () => {
    await clear();
    for (let i = 0; i < 120; i += 1) await insert(t.app, i);
    const first = await get(LIST);
    expect(first.json<NewsItem[]>()).toHaveLength(50);
    expect(nextOf(first.headers.link)).toMatch(/^\/api\/v1\/localnews\/\?limit=50&before=/);
    const most = await get(`${LIST}?limit=100`);
    expect(most.json<NewsItem[]>()).toHaveLength(100);
    const rest = await get(nextOf(most.headers.link)!);
    expect(rest.json<NewsItem[]>().map((item) => item.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `item at ${19 - i}`),
    );
    expect(rest.headers.link).toBeUndefined();
  });

  it('answers 400 field errors for a bad limit or cursor, and 401 before looking at either', async () => {
    expect((await get(`${LIST}?limit=0`)).json()).toEqual({
      limit: ['Ensure this value is greater than or equal to 1.'],
    });
    expect((await get(`${LIST}?limit=101`)).json()).toEqual({
      limit: ['Ensure this value is less than or equal to 100.'],
    });
    expect((await get(`${LIST}?limit=ten`)).json()).toEqual({ limit: ['A valid integer is required.'] });
    // Only decimal digits: what Ajv's coercion alone would read as a number is refused too.
    for (const limit of ['2.5', '1e1', '0x5', '%205', '5%20', '1_0', '%2B5', ''])
      expect((await get(`${LIST}?limit=${limit}`)).json(), limit).toEqual({ limit: ['A valid integer is required.'] });
    expect((await get(`${LIST}?limit=-1`)).json()).toEqual({
      limit: ['Ensure this value is greater than or equal to 1.'],
    });
    expect((await get(`${LIST}?limit=007`)).json<NewsItem[]>()).toHaveLength(7);
    const cursor = new URL(nextOf((await get(`${LIST}?limit=1`)).headers.link)!, 'http://x').searchParams.get(
      'before',
    )!;
    for (const before of [
      '',
      'not a cursor',
      '!!!',
      Buffer.from('1.x').toString('base64url'),
      `${cursor}=`,
      `${cursor}A`,
      'A'.repeat(300),
      // Well formed, but an id past what an integer column holds (PostgreSQL would refuse the query).
      Buffer.from('2147483648.2026-11-26T23:22:58.044Z').toString('base64url'),
      Buffer.from('9999999999.2026-11-26T23:22:58.044Z').toString('base64url'),
      // Well formed, but no such time: month 99, month 13 and hour 99, 30 February, hour 24.
      Buffer.from('6.9999-99-99T11:41:54.125Z').toString('base64url'),
      Buffer.from('6.2026-13-45T99:99:99.999Z').toString('base64url'),
      Buffer.from('6.2026-02-30T10:00:00.000Z').toString('base64url'),
      Buffer.from('6.2026-01-01T24:00:00.000Z').toString('base64url'),
    ]) {
      const res = await get(`${LIST}?before=${encodeURIComponent(before)}`);
      expect(res.statusCode, before).toBe(400);
      expect(res.json()).toEqual({ before: ['Invalid cursor.'] });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: `${LIST}?limit=0&before=x` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('never shows an item twice nor skips one while items are added and removed between pages (property)', async () => {
    let clock = 10_000;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 25 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(
          fc.record({
            adds: fc.integer({ min: 0, max: 3 }),
            removes: fc.array(fc.nat(), { maxLength: 3 }),
            instance: fc.boolean(),
          }),
          { maxLength: 12 },
        ),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 25, maxLength: 25 }),
        async (count, limit, changes, ties) => {
          await clear();
          // Some items share a second: the id orders them.
          for (let i = 0; i < count; i += 1) await insert(t.app, (clock += ties[i]!));
          const before = new Set((await t.app.db.selectFrom('news_items').select('id').execute()).map((r) => r.id));
          const removed = new Set<number>();
          let step = 0;
          const pages = await walk(limit, async () => {
            const change = changes[step++];
            if (!change) return;
            const app = change.instance ? other : t.app;
            for (let i = 0; i < change.adds; i += 1) await insert(app, (clock += 1), 'added while paging');
            const present = (await app.db.selectFrom('news_items').select('id').orderBy('id').execute()).map(
              (r) => r.id,
            );
            for (const pick of change.removes) {
              const id = present[pick % Math.max(present.length, 1)];
              if (id !== undefined && !removed.has(id)) {
                removed.add(id);
                await deleteNewsItem(app.db, id);
              }
            }
          });
          const seen = pages.flat();
          const seenIds = seen.map((item) => item.id);
          expect(new Set(seenIds).size, 'an item was shown twice').toBe(seenIds.length);
          const throughout = [...before].filter((id) => !removed.has(id));
          expect(
            throughout.filter((id) => !seenIds.includes(id)),
            'items skipped',
          ).toEqual([]);
          const keys = seen.map((item) => [item.created_at, item.id] as const);
          for (let i = 1; i < keys.length; i += 1) {
            const [a, b] = [keys[i - 1]!, keys[i]!];
            expect(a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]), 'newest first').toBe(true);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('sends a page over 1 KiB brotli-compressed, else gzip, the same JSON either way; small answers as they are', async () => {
    await clear();
    for (let i = 0; i < 30; i += 1)
      await insert(t.app, i, `A title long enough to make the page larger than a kibibyte, number ${i}`);
    const plain = await get(LIST);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await get(LIST, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).equals(plain.rawPayload)).toBe(true);
    const gzip = await get(LIST, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(plain.rawPayload)).toBe(true);
    expect((await get(LIST, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(LIST, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
    // Coding names in any letter case (RFC 9110), and x-gzip, as for every other answer.
    expect((await get(LIST, { 'accept-encoding': 'GZIP' })).headers['content-encoding']).toBe('gzip');
    expect((await get(LIST, { 'accept-encoding': 'Br' })).headers['content-encoding']).toBe('br');
    expect((await get(LIST, { 'accept-encoding': 'x-gzip' })).headers['content-encoding']).toBe('gzip');
    // The same compressed bytes again, from what is kept.
    expect((await get(LIST, { 'accept-encoding': 'br' })).rawPayload.equals(br.rawPayload)).toBe(true);

    const small = await get(`${LIST}?limit=1`, { 'accept-encoding': 'br' });
    expect(small.rawPayload.length).toBeLessThanOrEqual(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json<NewsItem[]>()).toHaveLength(1);
  });

  it('compresses any other JSON answer over 1 KiB too (one item with long content), and not the small ones', async () => {
    const long = (
      await insertNewsItem(
        t.app.db,
        {
          authorId: alice.userId,
          title: 'Long',
          content: 'Neighbours '.repeat(300),
          createdAt: new Date().toISOString(),
        },
        [],
      )
    ).id;
    const br = await get(newsItemPath(long), { 'accept-encoding': 'br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).content).toBe('Neighbours '.repeat(300));
    const gzip = await get(newsItemPath(long), { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).equals(brotliDecompressSync(br.rawPayload))).toBe(true);
    // Text that compresses poorly (random letters) comes out whole as well.
    const noisy = randomBytes(3000).toString('base64');
    const hard = (
      await insertNewsItem(
        t.app.db,
        { authorId: alice.userId, title: 'Noisy', content: noisy, createdAt: new Date().toISOString() },
        [],
      )
    ).id;
    for (let read = 0; read < 3; read += 1) {
      // The first read is built for its request, the next ones are kept: the same JSON every time.
      const answer = await get(newsItemPath(hard), { 'accept-encoding': 'br' });
      expect(answer.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(answer.rawPayload).toString()).content).toBe(noisy);
    }
    const short = await insert(t.app, 99_999, 'Short');
    expect((await get(newsItemPath(short), { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
    expect((await get(newsItemPath(987_654), { 'accept-encoding': 'br' })).headers['content-encoding']).toBeUndefined();
  });
});
