import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newsItemPath, type NewsItem } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { multipart } from '../helpers/multipart.js';
import { bearer, createUser, tokenAuth, type TestUser } from '../helpers/users.js';

/** `hello-admin news list` and `news delete` (moderation): the operators' view of the news. */
describe.each(dialects)('hello-admin news (%s)', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    alice = await createUser(t);
  });
  afterAll(() => t.close());

  const post = async (title: string) => {
    const body = multipart({ title, content: 'c' }, [{ filename: 'note.txt', contentType: 'text/plain', data: 'x\n' }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/localnews/new',
      headers: { ...tokenAuth(alice), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<NewsItem>();
  };

  it('news list shows the newest items first, one line each, and --last N of them', async () => {
    const items = [];
    for (const title of ['first', 'second', 'third\nwith a newline']) items.push(await post(title));
    const all = await cli(t, ['news', 'list']);
    expect(all.code).toBe(0);
    const lines = all.out.split('\n');
    expect(lines[0]).toMatch(/^\s+id\s+created \(UTC\)\s+files\s+author\s+title$/);
    expect(lines.slice(1, 4).map((line) => line.trim().split(/\s+/)[0])).toEqual(
      items.map((i) => String(i.id)).reverse(),
    );
    expect(lines[1]).toContain(`${alice.email}`);
    expect(lines[1]).toContain('third with a newline');
    expect(lines.at(-1)).toBe('3 items');
    const last = await cli(t, ['news', 'list', '--last', '1']);
    expect(last.out.split('\n').slice(1)).toEqual([expect.stringContaining('third with a newline'), '1 item']);
  });

  it('news delete removes the item and its files after the commit; its links answer 404', async () => {
    const item = await post('to moderate');
    const { storage_name } = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('news_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(existsSync(path.join(t.dataDir, 'uploads', storage_name))).toBe(true);
    const res = await cli(t, ['news', 'delete', String(item.id)]);
    expect(res).toMatchObject({ code: 0, out: `Deleted news item ${item.id} and its files.` });
    expect(existsSync(path.join(t.dataDir, 'uploads', storage_name))).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: newsItemPath(item.id), headers: bearer(alice) })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: item.files[0]!.url })).statusCode).toBe(404);
  });

  it('news refuses a wrong usage (2) and an unknown item (1)', async () => {
    expect(await cli(t, ['news', 'delete', '999999'])).toMatchObject({ code: 1, err: 'No news item 999999.' });
    expect((await cli(t, ['news', 'delete', 'abc'])).code).toBe(2);
    expect((await cli(t, ['news', 'delete'])).code).toBe(2);
    expect((await cli(t, ['news', 'list', '--last', '0'])).code).toBe(2);
    expect((await cli(t, ['news'])).code).toBe(2);
    expect((await cli(t, ['news', 'purge'])).code).toBe(2);
  });
});
