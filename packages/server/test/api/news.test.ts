import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsItem } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { bearer, createUser, tokenAuth, type TestUser } from '../helpers/users.js';

const NEW = '/api/v1/localnews/new';
const LIST = '/api/v1/localnews/';

describe.each(dialects)('local news (%s)', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(() => t.close());

  const post = (user: TestUser, fields: Record<string, string>, files: FilePart[]) => {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...tokenAuth(user), ...body.headers },
      payload: body.payload,
    });
  };
  const note = (text: string): FilePart => ({ filename: `${text}.txt`, contentType: 'text/plain', data: `${text}\n` });

  it('creates an item with two files that round-trip byte for byte through their urls', async () => {
    // Random bytes look like a known format now and then (an MPEG audio frame: about 1 in 2,500 in a
    // trial of 20,000), which sniffing would rightly report; a run of NULs first matches no signature.
    const binary = Buffer.concat([Buffer.alloc(16), randomBytes(200_000)]);
    const res = await post(alice, { title: 'Market day', content: 'Saturday, 9 to 1.' }, [
      { filename: 'stalls.bin', data: binary },
      { filename: 'Plan für Samstag.txt', contentType: 'text/plain', data: 'Äpfel und Birnen\n' },
    ]);
    expect(res.statusCode).toBe(201);
    const item = res.json<NewsItem>();
    expect(item).toEqual({
      id: expect.any(Number),
      title: 'Market day',
      content: 'Saturday, 9 to 1.',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      author: alice.email,
      files: [
        {
          id: expect.any(Number),
          name: 'stalls.bin',
          size: binary.length,
          content_type: 'application/octet-stream',
          url: expect.stringMatching(/^\/api\/v1\/localnews\/files\/\d+\?expires=\d+&sig=[\w-]{22}$/),
        },
        {
          id: expect.any(Number),
          name: 'Plan für Samstag.txt',
          size: 18,
          content_type: 'text/plain',
          url: expect.any(String),
        },
      ],
    });
    // A plain link: no Authorization header.
    const first = await t.app.inject({ method: 'GET', url: item.files[0]!.url });
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(binary)).toBe(true);
    expect(first.headers['content-length']).toBe(String(binary.length));
    expect(first.headers['content-disposition']).toBe(`attachment; filename="stalls.bin"; filename*=UTF-8''stalls.bin`);
    const head = await t.app.inject({ method: 'HEAD', url: item.files[0]!.url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(binary.length));
    expect(head.rawPayload.length).toBe(0);
    const second = await t.app.inject({ method: 'GET', url: item.files[1]!.url });
    expect(second.body).toBe('Äpfel und Birnen\n');
    expect(second.headers['content-disposition']).toBe(
      `attachment; filename="Plan f_r Samstag.txt"; filename*=UTF-8''Plan%20f%C3%BCr%20Samstag.txt`,
    );
  });

  it.runIf(dialect === 'postgres')(
    'keeps the files of an item whose COMMIT went on after the server stopped waiting for it (503)',
    async () => {
      // A COMMIT longer than the pool's query timeout (5 s, db/database.ts): a deferred trigger sleeps in it.
      await sql`CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(6); RETURN NULL; END $$`.execute(t.app.db);
      await sql`CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON news_items DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW WHEN (NEW.title = 'Slow commit') EXECUTE FUNCTION slow_commit()`.execute(t.app.db);
      try {
        const res = await post(alice, { title: 'Slow commit', content: 'x' }, [note('slow')]);
        expect(res.statusCode).toBe(503);
        // It committed all the same: the item is listed, and its file is put in place once that is seen.
        const download = async () => {
          const list = await t.app.inject({ method: 'GET', url: LIST, headers: bearer(alice) });
          const item = list.json<NewsItem[]>().find((i) => i.title === 'Slow commit');
          return item && (await t.app.inject({ method: 'GET', url: item.files[0]!.url })).body;
        };
        await expect.poll(download, { timeout: 20_000, interval: 500 }).toBe('slow\n');
      } finally {
        await sql`DROP TRIGGER slow_commit ON news_items`.execute(t.app.db);
        await sql`DROP FUNCTION slow_commit()`.execute(t.app.db);
      }
    },
    40_000,
  );

  it('lists every item newest first, in the contract shape, files in upload order', async () => {
    const older = (await post(alice, { title: 'Older', content: 'first' }, [note('a'), note('b')])).json<NewsItem>();
    const newer = (await post(bob, { title: 'Newer', content: 'second' }, [note('c')])).json<NewsItem>();
    const res = await t.app.inject({ method: 'GET', url: LIST, headers: bearer(alice) });
    expect(res.statusCode).toBe(200);
    const list = res.json<NewsItem[]>();
    expect(list.slice(0, 2).map((i) => i.id)).toEqual([newer.id, older.id]);
    expect(list[0]).toEqual({ ...newer, files: [{ ...newer.files[0], url: expect.any(String) }] });
    expect(list[1]!.author).toBe(alice.email);
    expect(list[1]!.files.map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    for (const item of list)
      expect(Object.keys(item).sort()).toEqual(['author', 'content', 'created_at', 'files', 'id', 'title']);
    const dates = list.map((i) => i.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it('asks for a Bearer access token to list', async () => {
    const none = await t.app.inject({ method: 'GET', url: LIST });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect(none.headers['www-authenticate']).toBe('Bearer realm="api"');
    const refreshAsBearer = await t.app.inject({
      method: 'GET',
      url: LIST,
      headers: { authorization: `Bearer ${alice.refresh}` },
    });
    expect(refreshAsBearer.statusCode).toBe(401);
    expect(refreshAsBearer.json()).toMatchObject({ code: 'token_not_valid' });
    expect(refreshAsBearer.headers['www-authenticate']).toBe('Bearer realm="api"');
  });

  it('asks for the Token (refresh) scheme to create, and stores nothing without it', async () => {
    const before = (await t.app.db.selectFrom('news_items').select('id').execute()).length;
    const body = multipart({ title: 'x', content: 'y' }, [note('z')]);
    const none = await t.app.inject({ method: 'POST', url: NEW, headers: body.headers, payload: body.payload });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ detail: 'Authentication credentials were not provided.' });
    // The challenge names the scheme this call takes, not the list's.
    expect(none.headers['www-authenticate']).toBe('Token realm="api"');
    const accessAsToken = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...body.headers, authorization: `Token ${alice.access}` },
      payload: body.payload,
    });
    expect(accessAsToken.statusCode).toBe(401);
    expect(accessAsToken.json()).toMatchObject({ code: 'token_not_valid' });
    expect(accessAsToken.headers['www-authenticate']).toBe('Token realm="api"');
    const bearerScheme = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...body.headers, ...bearer(alice) },
      payload: body.payload,
    });
    expect(bearerScheme.statusCode).toBe(401);
    expect(bearerScheme.headers['www-authenticate']).toBe('Token realm="api"');
    expect((await t.app.db.selectFrom('news_items').select('id').execute()).length).toBe(before);
  });

  it('answers 400 field errors for missing and blank fields', async () => {
    const empty = await post(alice, {}, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      title: ['This field is required.'],
      content: ['This field is required.'],
      files: ['This field is required.'],
    });
    const blank = await post(alice, { title: '  ', content: 'ok' }, [note('n')]);
    expect(blank.json()).toEqual({ title: ['This field may not be blank.'] });
    const nul = await post(alice, { title: 'a\u0000b', content: 'ok' }, [note('n')]);
    expect(nul.statusCode).toBe(400);
    expect(nul.json()).toEqual({ title: ['Null characters are not allowed.'] });
    const emptyFile = await post(alice, { title: 't', content: 'c' }, [{ filename: 'empty.txt', data: '' }]);
    expect(emptyFile.json()).toEqual({ files: ['The submitted file is empty.'] });
    const noFileChosen = await post(alice, { title: 't', content: 'c' }, [{ filename: '', data: '' }]);
    expect(noFileChosen.json()).toEqual({ files: ['This field is required.'] });
  });

  it('accepts JSON and url-encoded bodies, which carry no files', async () => {
    const json = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: tokenAuth(alice),
      payload: { title: 'T', content: 'C' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual({ files: ['This field is required.'] });
    // In JSON, null and a list are no strings (the media type's letter case does not matter).
    const mistyped = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...tokenAuth(alice), 'content-type': 'Application/JSON' },
      payload: JSON.stringify({ title: null, content: ['a', 'b'] }),
    });
    expect(mistyped.json()).toEqual({
      title: ['This field may not be null.'],
      content: ['Not a valid string.'],
      files: ['This field is required.'],
    });
    const form = await t.app.inject({
      method: 'POST',
      url: NEW,
      payload: 'content=C',
      headers: { ...tokenAuth(alice), 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.json()).toEqual({ title: ['This field is required.'], files: ['This field is required.'] });
  });

  it('keeps the item after a restart, files included', async () => {
    const item = (await post(alice, { title: 'Durable', content: 'yes' }, [note('kept')])).json<NewsItem>();
    await t.restart();
    const list = (await t.app.inject({ method: 'GET', url: LIST, headers: bearer(alice) })).json<NewsItem[]>();
    const again = list.find((i) => i.id === item.id)!;
    expect(again.title).toBe('Durable');
    expect((await t.app.inject({ method: 'GET', url: again.files[0]!.url })).body).toBe('kept\n');
  });
});
