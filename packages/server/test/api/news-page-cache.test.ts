import { brotliDecompressSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NewsItem } from '@hello/contract';
import { buildApp } from '../../src/app.js';
import { deleteNewsItem, insertNewsItem, newsRevision } from '../../src/repositories/news.js';
import { createNewsPageCache, NewsPage } from '../../src/routes/api/v1/localnews/news-page-cache.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { multipart } from '../helpers/multipart.js';
import { bearer, createUser, tokenAuth, type TestUser } from '../helpers/users.js';

const LIST = '/api/v1/localnews/';
const NEW = '/api/v1/localnews/new';

/**
 * The news list's pages are kept between requests (routes/api/v1/localnews/news-page-cache.ts). These
 * check that a kept answer is never served once it is stale: not after a change made by another server
 * instance on the same database, not after an undone add, not after its links' expiry step; and that
 * a page this instance makes again when an item is posted through it is the page the database gives.
 */
describe.each(dialects)('the kept news list (%s)', (dialect) => {
  let t: TestApp;
  let other: TestApp['app'];
  let alice: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { ACCESS_TOKEN_LIFETIME: '3600' });
    other = await buildApp(t.config); // a second instance on the same data
    alice = await createUser(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });
  afterEach(() => vi.restoreAllMocks());

  const list = async (app = t.app, user = alice) => {
    const res = await app.inject({ method: 'GET', url: LIST, headers: bearer(user) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res.json<NewsItem[]>();
  };
  const post = async (app: TestApp['app'], title: string) => {
    const body = multipart({ title, content: 'c' }, [
      { filename: `${title}.txt`, contentType: 'text/plain', data: `${title}\n` },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...tokenAuth(alice), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<NewsItem>();
  };

  it('shows an item added through another instance on the very next request', async () => {
    await post(t.app, 'first');
    expect((await list()).map((i) => i.title)).toEqual(['first']);
    expect((await list()).map((i) => i.title)).toEqual(['first']); // now answered from what was kept
    const added = await post(other, 'second');
    expect((await list()).map((i) => i.id)).toEqual([added.id, expect.any(Number)]);
    expect((await list(other)).map((i) => i.title)).toEqual(['second', 'first']);
  });

  it('drops an add that was undone, whichever instance undid it', async () => {
    const before = await list();
    const { id } = await insertNewsItem(
      other.db,
      { authorId: alice.userId, title: 'undone', content: 'c', createdAt: new Date().toISOString() },
      [],
    );
    expect((await list())[0]!.id).toBe(id);
    await deleteNewsItem(other.db, id);
    expect(await list()).toEqual(before);
  });

  it('shows an item edited or deleted through another instance on the very next request', async () => {
    const item = await post(t.app, 'kept item');
    const url = `/api/v1/localnews/${item.id}/`;
    const read = async () => t.app.inject({ method: 'GET', url, headers: bearer(alice) });
    expect((await read()).json<NewsItem>().title).toBe('kept item');
    expect((await read()).json<NewsItem>().title).toBe('kept item'); // now answered from what was kept
    const edit = await other.inject({
      method: 'PATCH',
      url,
      headers: bearer(alice),
      payload: { title: 'edited elsewhere' },
    });
    expect(edit.statusCode).toBe(200);
    expect((await read()).json<NewsItem>().title).toBe('edited elsewhere');
    expect((await other.inject({ method: 'DELETE', url, headers: bearer(alice) })).statusCode).toBe(204);
    expect((await read()).statusCode).toBe(404);
  });

  it('serves the same bytes to every caller while nothing changes', async () => {
    const bob = await createUser(t);
    const a = await t.app.inject({ method: 'GET', url: LIST, headers: bearer(alice) });
    const b = await t.app.inject({ method: 'GET', url: LIST, headers: bearer(bob) });
    expect(b.body).toBe(a.body);
  });

  it('signs fresh links once the expiry step rolls over, and they work', async () => {
    const now = Date.now();
    const before = await list();
    const expiresOf = (items: NewsItem[]) =>
      new Set(items.flatMap((i) => i.files.map((f) => new URL(f.url, 'http://x').searchParams.get('expires'))));
    expect(expiresOf(before).size).toBe(1);
    vi.spyOn(Date, 'now').mockReturnValue(now + 10 * 60 * 1000);
    const later = await list();
    expect(later.map((i) => i.id)).toEqual(before.map((i) => i.id));
    const [was] = expiresOf(before);
    const [is] = expiresOf(later);
    expect(Number(is)).toBeGreaterThanOrEqual(Number(was) + 600);
    const file = later[0]!.files[0]!;
    const download = await t.app.inject({ method: 'GET', url: file.url });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(`${later[0]!.title}\n`);
  });

  it('adds an item posted here to its kept pages, the very bytes another instance reads from the database', async () => {
    const read = (app: TestApp['app'], url: string) => app.inject({ method: 'GET', url, headers: bearer(alice) });
    await post(t.app, 'one of a few');
    await post(t.app, 'one of a few more');
    const firstOfTwo = `${LIST}?limit=2`;
    const linked = (await read(t.app, firstOfTwo)).headers.link as string;
    const secondOfTwo = /<([^>]+)>/.exec(linked)![1]!;
    const pages = [firstOfTwo, secondOfTwo, LIST];
    for (const url of pages) expect((await read(t.app, url)).statusCode).toBe(200); // kept here now
    for (const title of ['added here', 'added here again']) {
      await post(t.app, title);
      for (const url of pages) {
        const here = await read(t.app, url);
        const fresh = await read(other, url); // its kept pages are older: read from the database
        expect(here.body).toBe(fresh.body);
        expect(here.headers.link).toBe(fresh.headers.link);
      }
    }
    expect((await list()).slice(0, 2).map((i) => i.title)).toEqual(['added here again', 'added here']);
  });

  it('makes a kept page again from its items and the added one without reading the list, only for the next revision', async () => {
    const kept = createNewsPageCache(t.app.db, t.app.urlSigner.expiry);
    // Items rendered by id alone: an entry made up below shows whether a page was read or made again.
    const render = (item: { id: number }) => JSON.stringify({ id: item.id });
    const store = (title: string) =>
      insertNewsItem(
        t.app.db,
        { authorId: alice.userId, title, content: 'c', createdAt: new Date().toISOString() },
        [],
      );
    await store('kept a');
    await store('kept b');
    const kept1 = await kept.page(render, 2, undefined, await newsRevision(t.app.db));
    const [newest] = JSON.parse(kept1.json.toString()) as { id: number }[];

    const added = await store('added');
    const position = { createdAt: new Date().toISOString(), id: added.id };
    const words = ['council', 'library', 'opens', 'the', 'market', 'on', 'Saturday', 'bus', 'every', 'minutes'];
    const text = Array.from({ length: 3000 }, (_, k) => words[(k * k + k) % 10]).join(' '); // over 16 KiB
    const made = { made: 'again', text };
    kept.added({ position, json: JSON.stringify(made) }, Date.now(), added.revision);
    const again = await kept.page(render, 2, undefined, added.revision);
    expect(JSON.parse(again.json.toString())).toEqual([made, newest]);
    expect(again.next?.id).toBe(newest!.id);
    // Compressed fast, as it lasts until the next post; a page read from the database, well.
    const quick = again.body('br')!;
    expect(brotliDecompressSync(quick)).toEqual(again.json);
    expect(quick.length).toBeGreaterThan(new NewsPage(again.json, again.next).body('br')!.length);

    // A change between the kept revision and the added item's (another instance's): read afresh.
    const between = await store('between');
    const last = await store('last');
    kept.added({ position: { ...position, id: last.id }, json: '{"made":"again"}' }, Date.now(), last.revision);
    const fresh = await kept.page(render, 2, undefined, last.revision);
    expect(JSON.parse(fresh.json.toString())).toEqual([{ id: last.id }, { id: between.id }]);
  });
});
