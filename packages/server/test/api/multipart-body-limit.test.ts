import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths, newsItemPath, type NewsItem } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { bearer, createUser, tokenAuth, type TestUser } from '../helpers/users.js';

const MAX_BODY = 64 * 1024;
const MAX_FILE = 4 * MAX_BODY;
const TOO_LARGE = { detail: 'Request body is too large.' };

/**
 * MAX_BODY_BYTES bounds a multipart body to a call that takes no upload as a whole, its file parts
 * included, as it bounds a JSON or url-encoded one (docs/api.md, "Limits"); the uploads are bounded
 * by MAX_UPLOAD_FILE_BYTES and MAX_UPLOAD_FILES instead.
 */
describe.each(dialects)('multipart bodies over MAX_BODY_BYTES (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { MAX_BODY_BYTES: String(MAX_BODY), MAX_UPLOAD_FILE_BYTES: String(MAX_FILE) });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const login = (fields: Record<string, string>, files: FilePart[] = []) =>
    t.app.inject({ method: 'POST', url: apiPaths.token, ...multipart(fields, files) });

  it('answers a login with a file part over the limit with 413', async () => {
    const file = { name: 'f', filename: 'big.bin', data: Buffer.alloc(2 * MAX_BODY, 7) };
    const res = await login({ email: user.email, password: user.password }, [file]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(TOO_LARGE);
  });

  it('answers fields that add up to more than the limit with 413', async () => {
    const fields = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`x${n}`, 'a'.repeat(MAX_BODY / 4)]));
    const res = await login({ email: user.email, password: user.password, ...fields });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(TOO_LARGE);
  });

  it('answers one field over the limit with 413, not with the field cut short', async () => {
    const res = await login({ email: user.email, password: 'p'.repeat(MAX_BODY + 1) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(TOO_LARGE);
  });

  it('still takes an ordinary multipart login, a small file part ignored', async () => {
    const file = { name: 'f', filename: 'small.txt', data: 'hello\n' };
    for (const files of [[], [file]]) {
      const res = await login({ email: user.email, password: user.password }, files);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toHaveProperty('access');
    }
  });

  it('still takes uploads over MAX_BODY_BYTES (under MAX_UPLOAD_FILE_BYTES), on creation and edit', async () => {
    const big = (name: string): FilePart => ({ filename: name, data: Buffer.alloc(2 * MAX_BODY, 1) });
    const created = multipart({ title: 'Big', content: 'Files over MAX_BODY_BYTES.' }, [big('a.bin')]);
    const res = await t.app.inject({
      method: 'POST',
      url: apiPaths.localNewsNew,
      headers: { ...tokenAuth(user), ...created.headers },
      payload: created.payload,
    });
    expect(res.statusCode).toBe(201);
    const item = res.json<NewsItem>();
    expect(item.files[0]!.size).toBe(2 * MAX_BODY);

    const edit = multipart({ content: 'One more.' }, [big('b.bin')]);
    const edited = await t.app.inject({
      method: 'PATCH',
      url: newsItemPath(item.id),
      headers: { ...bearer(user), ...edit.headers },
      payload: edit.payload,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json<NewsItem>().files.map((f) => f.size)).toEqual([2 * MAX_BODY, 2 * MAX_BODY]);
  });

  it('takes any body with MAX_BODY_BYTES=0, as 0 turns every limit off', async () => {
    const unlimited = await buildTestApp(dialect, { MAX_BODY_BYTES: '0' });
    try {
      const password = 'p'.repeat(2 * 1024 * 1024);
      const json = await unlimited.app.inject({
        method: 'POST',
        url: apiPaths.token,
        payload: { email: user.email, password },
      });
      const form = await unlimited.app.inject({
        method: 'POST',
        url: apiPaths.token,
        ...multipart({ email: user.email, password }),
      });
      // Read whole and judged: a password over 1024 characters is a field error, not a 413.
      for (const res of [json, form]) expect(res.json()).toEqual({ password: [expect.stringContaining('1024')] });
    } finally {
      await unlimited.close();
    }
  });
});
