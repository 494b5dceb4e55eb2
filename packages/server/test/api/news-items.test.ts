import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PassThrough } from 'node:stream';
import { apiPaths, newsItemPath, userSessionPath, type NewsItem } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { filesUnder } from '../helpers/files.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { accountEmailChanged } from '../../src/repositories/news.js';
import { setEmail } from '../../src/repositories/users.js';
import { bearer, createUser, tokenAuth, uniqueEmail, type TestUser } from '../helpers/users.js';

const NEW = '/api/v1/localnews/new';
const FORBIDDEN = { detail: 'You do not have permission to perform this action.' };
const NOT_FOUND = { detail: 'Not found.' };

/** One item, its edit by its author and its deletion (docs/api.md, "Local news": one item). */
describe.each(dialects)('one news item: read, edit, delete (%s)', (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { MAX_UPLOAD_FILES: '4' });
    alice = await createUser(t);
    bob = await createUser(t);
  });
  afterAll(() => t.close());

  const note = (text: string): FilePart => ({ filename: `${text}.txt`, contentType: 'text/plain', data: `${text}\n` });
  const create = async (user = alice, files = [note('one'), note('two')]) => {
    const body = multipart({ title: 'Street party', content: 'Saturday at noon.' }, files);
    const res = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { ...tokenAuth(user), ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<NewsItem>();
  };
  const get = (id: number | string, user = alice) =>
    t.app.inject({ method: 'GET', url: newsItemPath(id), headers: bearer(user) });
  const patchForm = (id: number, fields: [string, string][], files: FilePart[] = [], user = alice) => {
    // Repeated fields (remove_files) need a list, not an object.
    const body = multipart({}, files);
    const head = fields.map(
      ([name, value]) =>
        `--${boundaryOf(body.headers)}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    );
    const payload = Buffer.concat([Buffer.from(head.join('')), body.payload]);
    return t.app.inject({
      method: 'PATCH',
      url: newsItemPath(id),
      headers: { ...bearer(user), ...body.headers },
      payload,
    });
  };
  const patchJson = (id: number, payload: object, user = alice) =>
    t.app.inject({ method: 'PATCH', url: newsItemPath(id), headers: bearer(user), payload });
  const del = (id: number | string, user = alice) =>
    t.app.inject({ method: 'DELETE', url: newsItemPath(id), headers: bearer(user) });
  /** Files in the uploads' staging folders (one per instance). */
  const staged = () => filesUnder(path.join(t.dataDir, 'uploads', '.tmp'));
  const storedFiles = () => readdirSync(path.join(t.dataDir, 'uploads')).filter((name) => !name.startsWith('.'));
  const storageName = async (fileId: number) =>
    (await t.app.db.selectFrom('news_files').select('storage_name').where('id', '=', fileId).executeTakeFirstOrThrow())
      .storage_name;

  it('answers one item in the list shape, to any signed-in user', async () => {
    const item = await create();
    const res = await get(item.id, bob);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...item, files: item.files.map((f) => ({ ...f, url: expect.any(String) })) });
    const download = await t.app.inject({ method: 'GET', url: res.json<NewsItem>().files[1]!.url });
    expect(download.body).toBe('two\n');
  });

  it('answers 404 for an unknown or malformed id and 401 without a token', async () => {
    for (const id of ['999999', '0', '07', 'abc', '1e3']) {
      const res = await get(id);
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: newsItemPath(1) });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBeDefined();
  });

  it('lets the author change title and content as JSON, and keeps the files', async () => {
    const item = await create();
    const res = await patchJson(item.id, { title: 'Street party moved', content: 'Sunday instead.' });
    expect(res.statusCode).toBe(200);
    const edited = res.json<NewsItem>();
    expect(edited).toMatchObject({
      id: item.id,
      title: 'Street party moved',
      content: 'Sunday instead.',
      author: alice.email,
      created_at: item.created_at,
    });
    expect(edited.files.map((f) => f.id)).toEqual(item.files.map((f) => f.id));
    expect((await get(item.id)).json()).toEqual(edited);
    // Only what is sent changes.
    const titleOnly = (await patchJson(item.id, { title: 'Only the title' })).json<NewsItem>();
    expect(titleOnly.content).toBe('Sunday instead.');
  });

  it('adds and removes files in one multipart edit; the removed file leaves storage and its link answers 404', async () => {
    const item = await create();
    const [first, second] = item.files;
    const removedName = await storageName(first!.id);
    expect(storedFiles()).toContain(removedName);
    const res = await patchForm(
      item.id,
      [
        ['title', 'With a new plan'],
        ['remove_files', String(first!.id)],
      ],
      [note('three'), note('four')],
    );
    expect(res.statusCode).toBe(200);
    const edited = res.json<NewsItem>();
    expect(edited.title).toBe('With a new plan');
    expect(edited.files.map((f) => f.name)).toEqual(['two.txt', 'three.txt', 'four.txt']);
    expect(edited.files[0]!.id).toBe(second!.id);
    expect(storedFiles()).not.toContain(removedName);
    expect((await t.app.inject({ method: 'GET', url: first!.url })).statusCode).toBe(404);
    for (const file of edited.files)
      expect((await t.app.inject({ method: 'GET', url: file.url })).body).toBe(`${file.name.replace('.txt', '')}\n`);
  });

  it('accepts remove_files as a JSON list of ids', async () => {
    const item = await create();
    const res = await patchJson(item.id, { remove_files: [item.files[1]!.id] });
    expect(res.statusCode).toBe(200);
    expect(res.json<NewsItem>().files.map((f) => f.name)).toEqual(['one.txt']);
    // One id that is not in a list is refused in JSON, as Django REST Framework's ListField refuses it.
    for (const [value, type] of [
      [item.files[0]!.id, 'int'],
      [String(item.files[0]!.id), 'str'],
      [true, 'bool'],
      [{ id: 1 }, 'dict'],
    ] as const) {
      const refused = await patchJson(item.id, { remove_files: value });
      expect([refused.statusCode, refused.json()]).toEqual([
        400,
        { remove_files: [`Expected a list of items but got type "${type}".`] },
      ]);
    }
    expect((await get(item.id)).json<NewsItem>().files.map((f) => f.name)).toEqual(['one.txt']);
  });

  it('refuses to leave an item without a file, and changes nothing', async () => {
    const item = await create();
    const before = (await get(item.id)).json<NewsItem>();
    const res = await patchForm(item.id, [
      ['title', 'Gone'],
      ...item.files.map((f): [string, string] => ['remove_files', String(f.id)]),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ files: ['A news item must keep at least one file.'] });
    expect((await get(item.id)).json()).toEqual(before);
    for (const file of item.files) expect(storedFiles()).toContain(await storageName(file.id));
    // Removing them all while adding one is fine.
    const swap = await patchForm(
      item.id,
      item.files.map((f): [string, string] => ['remove_files', String(f.id)]),
      [note('fresh')],
    );
    expect(swap.statusCode).toBe(200);
    expect(swap.json<NewsItem>().files.map((f) => f.name)).toEqual(['fresh.txt']);
  });

  it('refuses files of another item, unknown ids and malformed ids, leaving everything as it was', async () => {
    const item = await create();
    const other = await create(bob);
    const filesBefore = storedFiles().length;
    const foreign = await patchForm(
      item.id,
      [
        ['remove_files', String(other.files[0]!.id)],
        ['title', 'x'],
      ],
      [note('extra')],
    );
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ remove_files: [`Invalid pk "${other.files[0]!.id}" - object does not exist.`] });
    const malformed = await patchJson(item.id, { remove_files: ['first'] });
    expect(malformed.json()).toEqual({ remove_files: ['A valid integer is required.'] });
    expect(storedFiles().length).toBe(filesBefore); // the staged "extra" was discarded
    expect((await get(item.id)).json<NewsItem>().title).toBe('Street party');
    expect((await get(other.id)).json<NewsItem>().files).toHaveLength(2);
  });

  it('refuses more than 1000 ids in remove_files before any query', async () => {
    const item = await create();
    const tooMany = { remove_files: ['Ensure this field has no more than 1000 elements.'] };
    const json = await patchJson(item.id, { remove_files: Array.from({ length: 1001 }, (_, i) => i + 1) });
    expect(json.statusCode).toBe(400);
    expect(json.json()).toEqual(tooMany);
    // Tens of thousands: more parameters than one statement may carry on either database.
    const huge = await patchJson(item.id, { remove_files: Array.from({ length: 40_000 }, (_, i) => i + 1) });
    expect(huge.json()).toEqual(tooMany);
    // Each id is checked first, as a list field checks its elements before its length; null is no list.
    const withWord = await patchJson(item.id, {
      remove_files: [...Array.from({ length: 1001 }, (_, i) => i + 1), 'x'],
    });
    expect(withWord.json()).toEqual({ remove_files: ['A valid integer is required.'] });
    expect((await patchJson(item.id, { remove_files: null })).json()).toEqual({
      remove_files: ['This field may not be null.'],
    });
    // A form stops sooner: its parser takes at most 50 fields.
    const form = await patchForm(
      item.id,
      Array.from({ length: 51 }, (_, i) => ['remove_files', String(i + 1)]),
    );
    expect(form.statusCode).toBe(413);
    expect(form.json()).toEqual({ detail: 'Request body is too large.' });
    expect((await get(item.id)).json<NewsItem>().files).toHaveLength(2);
  });

  it('holds an item to MAX_UPLOAD_FILES files in all', async () => {
    const item = await create(alice, [note('a'), note('b'), note('c')]);
    const res = await patchForm(item.id, [], [note('d'), note('e')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ files: ['Ensure there are no more than 4 files.'] });
    expect((await get(item.id)).json<NewsItem>().files).toHaveLength(3);
  });

  it('checks an edit like a creation: blank, too long, NUL, empty file', async () => {
    const item = await create();
    expect((await patchJson(item.id, { title: ' ' })).json()).toEqual({ title: ['This field may not be blank.'] });
    expect((await patchJson(item.id, { title: 'x'.repeat(256) })).json()).toEqual({
      title: ['Ensure this field has no more than 255 characters.'],
    });
    expect((await patchJson(item.id, { content: 'a\u0000b' })).json()).toEqual({
      content: ['Null characters are not allowed.'],
    });
    expect((await patchJson(item.id, { content: true })).json()).toEqual({ content: ['Not a valid string.'] });
    // In JSON a list or null is no string (a form's repeated field is another matter: its last value counts).
    expect((await patchJson(item.id, { title: ['a', 'b'] })).json()).toEqual({ title: ['Not a valid string.'] });
    expect((await patchJson(item.id, { title: { a: 'b' } })).json()).toEqual({ title: ['Not a valid string.'] });
    expect((await patchJson(item.id, { title: null, content: null })).json()).toEqual({
      title: ['This field may not be null.'],
      content: ['This field may not be null.'],
    });
    expect((await patchJson(item.id, [1, 2] as unknown as object)).json()).toEqual({
      non_field_errors: ['Invalid data. Expected a dictionary.'],
    });
    expect((await patchForm(item.id, [], [{ filename: 'empty.txt', data: '' }])).json()).toEqual({
      files: ['The submitted file is empty.'],
    });
    expect((await get(item.id)).json<NewsItem>().title).toBe('Street party');
    // A number is its text, as Django REST Framework's CharField takes it.
    expect((await patchJson(item.id, { content: 5 })).json<NewsItem>().content).toBe('5');
  });

  it('answers 403 to anyone but the author, before reading a byte of the upload', async () => {
    const item = await create();
    const filesBefore = storedFiles().length;
    const edit = await patchForm(item.id, [['title', 'Hijacked']], [note('intruder')], bob);
    expect(edit.statusCode).toBe(403);
    expect(edit.json()).toEqual(FORBIDDEN);
    const remove = await del(item.id, bob);
    expect(remove.statusCode).toBe(403);
    expect(remove.json()).toEqual(FORBIDDEN);
    expect(storedFiles().length).toBe(filesBefore);
    expect((await get(item.id)).json<NewsItem>().title).toBe('Street party');
  });

  it('answers 401, then 404 or 403, before a JSON body is parsed', async () => {
    const item = await create();
    const malformed = { 'content-type': 'application/json', payload: '{bad' };
    const call = (method: 'PATCH' | 'DELETE', id: number, headers: Record<string, string> = {}) =>
      t.app.inject({
        method,
        url: newsItemPath(id),
        headers: { 'content-type': malformed['content-type'], ...headers },
        payload: malformed.payload,
      });
    for (const method of ['PATCH', 'DELETE'] as const) {
      expect((await call(method, item.id)).statusCode, method).toBe(401);
      expect((await call(method, 987654, bearer(bob))).json(), method).toEqual(NOT_FOUND);
      expect((await call(method, item.id, bearer(bob))).json(), method).toEqual(FORBIDDEN);
    }
    // The author gets the body's own error.
    expect((await call('PATCH', item.id, bearer(alice))).json()).toEqual({ detail: 'Malformed request body.' });
    const create401 = await t.app.inject({
      method: 'POST',
      url: NEW,
      headers: { 'content-type': malformed['content-type'] },
      payload: malformed.payload,
    });
    expect(create401.statusCode).toBe(401);
    expect((await get(item.id)).json<NewsItem>().title).toBe('Street party');
  });

  it('answers 404 to edit or delete an item that does not exist', async () => {
    expect((await patchJson(987654, { title: 'x' })).statusCode).toBe(404);
    expect((await del(987654)).json()).toEqual(NOT_FOUND);
    expect((await del('abc')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: newsItemPath(1) })).statusCode).toBe(401);
  });

  it('deletes an item with its files: 204, gone from the list and from storage, its links 404', async () => {
    const item = await create();
    const names = await Promise.all(item.files.map((f) => storageName(f.id)));
    const res = await del(item.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await get(item.id)).statusCode).toBe(404);
    for (const name of names) expect(existsSync(path.join(t.dataDir, 'uploads', name))).toBe(false);
    for (const file of item.files) expect((await t.app.inject({ method: 'GET', url: file.url })).statusCode).toBe(404);
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/v1/localnews/?limit=100', headers: bearer(alice) })
    ).json<NewsItem[]>();
    expect(list.map((i) => i.id)).not.toContain(item.id);
    expect((await del(item.id)).statusCode).toBe(404);
  });

  describe('while the body streams: the session ended, the account deleted, its address changed', () => {
    const big = (name: string): FilePart => ({
      filename: `${name}.bin`,
      contentType: 'application/octet-stream',
      data: Buffer.alloc(256 * 1024, 7),
    });
    /**
     * Sends a multipart call's first half, runs `meanwhile` once the handler streams the file (the
     * call's checks are done by then), then the rest.
     */
    const inHalves = async (
      request: { method: 'POST' | 'PATCH'; url: string; authorization: string },
      fields: Record<string, string>,
      meanwhile: () => Promise<unknown>,
    ) => {
      const body = multipart(fields, [big('late')]);
      const stream = new PassThrough();
      const answer = t.app.inject({
        method: request.method,
        url: request.url,
        headers: { ...body.headers, authorization: request.authorization },
        payload: stream,
      });
      const before = staged().length;
      stream.write(body.payload.subarray(0, body.payload.length / 2));
      await expect.poll(() => staged().length, { timeout: 5_000, interval: 10 }).toBeGreaterThan(before);
      await meanwhile();
      stream.end(body.payload.subarray(body.payload.length / 2));
      return answer;
    };
    const itemsTitled = (title: string) =>
      t.app.db.selectFrom('news_items').select('id').where('title', '=', title).execute();

    it('stores no post, and no edit, made through a session ended meanwhile: 401, files discarded', async () => {
      const device = await t.app.sessions.start(alice.userId);
      const endDevice = () =>
        t.app.inject({ method: 'DELETE', url: userSessionPath(device.sessionId), headers: bearer(alice) });
      const filesBefore = storedFiles();
      const posted = await inHalves(
        { method: 'POST', url: NEW, authorization: `Token ${device.refresh}` },
        { title: 'Posted while logged out', content: 'x' },
        async () => expect((await endDevice()).statusCode).toBe(204),
      );
      expect(posted.statusCode, posted.body).toBe(401);
      expect(posted.json()).toMatchObject({ code: 'token_not_valid' });
      expect(await itemsTitled('Posted while logged out')).toEqual([]);

      const item = await create();
      const other = await t.app.sessions.start(alice.userId);
      const edited = await inHalves(
        { method: 'PATCH', url: newsItemPath(item.id), authorization: `Bearer ${other.access}` },
        { title: 'Edited while logged out' },
        () => t.app.inject({ method: 'DELETE', url: userSessionPath(other.sessionId), headers: bearer(alice) }),
      );
      expect(edited.statusCode, edited.body).toBe(401);
      expect((await get(item.id)).json()).toEqual({
        ...item,
        files: item.files.map((f) => ({ ...f, url: expect.any(String) })),
      });
      expect(storedFiles().length).toBe(filesBefore.length + item.files.length);
      expect(staged()).toEqual([]);
    });

    it("names the author's address as of the commit: one changed meanwhile, in the 201 and the kept list", async () => {
      const dave = await createUser(t);
      const list = async () =>
        (await t.app.inject({ method: 'GET', url: '/api/v1/localnews/', headers: bearer(dave) })).json<NewsItem[]>();
      const moved = uniqueEmail('moved');
      const posted = await inHalves(
        { method: 'POST', url: NEW, authorization: `Token ${dave.refresh}` },
        { title: 'Posted while moving', content: 'x' },
        async () => {
          // As a confirmed change does (auth/email-change.ts), then the list read, and kept, again.
          expect(await setEmail(t.app.db, dave.userId, moved)).toBe(true);
          await accountEmailChanged(t.app.db);
          await list();
        },
      );
      expect(posted.statusCode, posted.body).toBe(201);
      expect(posted.json<NewsItem>().author).toBe(moved);
      const first = (await list())[0]!;
      expect([first.title, first.author]).toEqual(['Posted while moving', moved]);
    });

    it('stores no post of an account deleted meanwhile: 401, not a 500, and none of its files stay', async () => {
      const carol = await createUser(t);
      const filesBefore = storedFiles();
      const posted = await inHalves(
        { method: 'POST', url: NEW, authorization: `Token ${carol.refresh}` },
        { title: 'Posted while deleted', content: 'x' },
        async () => {
          const res = await t.app.inject({
            method: 'POST',
            url: apiPaths.deleteAccount,
            headers: bearer(carol),
            payload: { password: carol.password },
          });
          expect(res.statusCode, res.body).toBe(204);
        },
      );
      expect(posted.statusCode, posted.body).toBe(401);
      expect(await itemsTitled('Posted while deleted')).toEqual([]);
      expect(storedFiles()).toEqual(filesBefore);
      expect(staged()).toEqual([]);
    });
  });

  it('answers an edit whose files cannot be put in place with 500, and leaves the item as it was', async () => {
    const item = await create();
    const before = (await get(item.id)).json<NewsItem>();
    const publish = vi
      .spyOn(t.app.uploads, 'publish')
      .mockRejectedValueOnce(Object.assign(new Error('EIO'), { code: 'EIO' }));
    try {
      const res = await patchForm(
        item.id,
        [
          ['title', 'Half done'],
          ['remove_files', String(item.files[0]!.id)],
        ],
        [note('new')],
      );
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: 'A server error occurred.' });
    } finally {
      publish.mockRestore();
    }
    const after = (await get(item.id)).json<NewsItem>();
    expect(after).toEqual({ ...before, files: before.files.map((f) => ({ ...f, url: expect.any(String) })) });
    for (const file of after.files) expect((await t.app.inject({ method: 'GET', url: file.url })).statusCode).toBe(200);
    expect(staged(), 'the new file was staged, then discarded').toEqual([]);
  });
});

const boundaryOf = (headers: Record<string, string>) => /boundary=(.+)$/.exec(headers['content-type']!)![1]!;
