import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewsItem } from '@hello/contract';
import { stagingHost } from '../../src/storage/staged-files.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { filesUnder } from '../helpers/files.js';
import { multipart, type FilePart } from '../helpers/multipart.js';
import { createUser, tokenAuth, type TestUser } from '../helpers/users.js';

const MAX_BYTES = 64 * 1024;
const MAX_FILES = 3;
// The 8-byte PNG signature and an IHDR chunk: enough for any sniffer to say image/png.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

describe.each(dialects)('uploads: limits, atomicity, types, links (%s)', (dialect) => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { MAX_UPLOAD_FILE_BYTES: String(MAX_BYTES), MAX_UPLOAD_FILES: String(MAX_FILES) });
    user = await createUser(t);
  });
  afterAll(() => t.close());

  const uploads = () => path.join(t.dataDir, 'uploads');
  const post = (files: FilePart[], fields = { title: 'T', content: 'C' }) => {
    const body = multipart(fields, files);
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/localnews/new',
      headers: { ...tokenAuth(user), ...body.headers },
      payload: body.payload,
    });
  };
  const counts = async () => ({
    items: (await t.app.db.selectFrom('news_items').select('id').execute()).length,
    files: (await t.app.db.selectFrom('news_files').select('id').execute()).length,
    onDisk: filesUnder(uploads()),
  });
  const small = (n: number): FilePart => ({ filename: `f${n}.txt`, data: `file ${n}\n` });

  it('refuses a file over MAX_UPLOAD_FILE_BYTES with 413, leaving no item and no file', async () => {
    const before = await counts();
    const res = await post([small(1), { filename: 'big.bin', data: Buffer.alloc(MAX_BYTES + 1, 7) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: `Ensure each file is no larger than ${MAX_BYTES} bytes.` });
    expect(await counts()).toEqual(before);
  });

  it('accepts a file of exactly MAX_UPLOAD_FILE_BYTES', async () => {
    const res = await post([{ filename: 'edge.bin', data: Buffer.alloc(MAX_BYTES, 1) }]);
    expect(res.statusCode).toBe(201);
    expect(res.json<NewsItem>().files[0]!.size).toBe(MAX_BYTES);
  });

  it('refuses more than MAX_UPLOAD_FILES files with 413, leaving no item and no file', async () => {
    const before = await counts();
    const res = await post([small(1), small(2), small(3), small(4)]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ detail: `Ensure there are no more than ${MAX_FILES} files.` });
    expect(await counts()).toEqual(before);
  });

  it('removes the staged files of a form that fails validation', async () => {
    const before = await counts();
    const res = await post([small(1), small(2)], { title: '', content: 'C' });
    expect(res.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('takes the content type from the bytes, never from the client', async () => {
    const res = await post([
      { filename: 'x.txt', contentType: 'text/html', data: PNG },
      {
        filename: 'page.html',
        contentType: 'text/html',
        data: '<!doctype html><script>alert(document.cookie)</script>',
      },
      { filename: 'blob.dat', contentType: 'text/plain', data: Buffer.from([0x41, 0x00, 0xff, 0xfe, 0x10]) },
    ]);
    expect(res.statusCode).toBe(201);
    const [png, html, blob] = res.json<NewsItem>().files;
    expect(png!.content_type).toBe('image/png');
    expect(html!.content_type).toBe('text/plain');
    expect(blob!.content_type).toBe('application/octet-stream');

    const served = await t.app.inject({ method: 'GET', url: html!.url });
    expect(served.headers['content-type']).toBe('text/plain');
    expect(served.headers['content-disposition']).toMatch(/^attachment; filename="page.html"/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect((await t.app.inject({ method: 'GET', url: png!.url })).headers['content-type']).toBe('image/png');
  });

  it('takes the content type of a file longer than the bytes it keeps for sniffing from the file itself', async () => {
    // Past the first 8 KiB (SNIFF_BYTES), the signature is read from the stored file; a text's first
    // 8 KiB end inside a character (é is two bytes), which a prefix is forgiven.
    const longPng = Buffer.concat([PNG, Buffer.alloc(20_000, 1)]);
    const longText = 'a'.repeat(8191) + 'é'.repeat(5000);
    const res = await post([
      { filename: 'big.png', contentType: 'text/plain', data: longPng },
      { filename: 'long.txt', contentType: 'application/octet-stream', data: longText },
    ]);
    expect(res.statusCode).toBe(201);
    const [png, text] = res.json<NewsItem>().files;
    expect([png!.content_type, png!.size]).toEqual(['image/png', longPng.length]);
    expect([text!.content_type, text!.size]).toEqual(['text/plain', Buffer.byteLength(longText)]);
  });

  it('keeps a client file name as metadata only and stores under random names', async () => {
    const res = await post([{ filename: '../../etc/pass\u202ewd\u0007.txt', data: 'x' }]);
    const file = res.json<NewsItem>().files[0]!;
    expect(file.name).toBe('passwd.txt');
    const row = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row.storage_name).toMatch(/^[0-9a-f]{32}$/);
    expect(existsSync(path.join(uploads(), row.storage_name))).toBe(true);
  });

  it('refuses a link once its id names another file (ids come back after a backup is restored)', async () => {
    const [a] = (await post([small(1)])).json<NewsItem>().files;
    expect((await t.app.inject({ method: 'GET', url: a!.url })).body).toBe('file 1\n');
    // Another file under the same id, as after a restore: its own bytes under its own stored name.
    writeFileSync(path.join(t.dataDir, 'uploads', 'another-file.txt'), 'someone else\n');
    await t.app.db
      .updateTable('news_files')
      .set({ storage_name: 'another-file.txt' })
      .where('id', '=', a!.id)
      .execute();
    const res = await t.app.inject({ method: 'GET', url: a!.url });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('someone else');
  });

  it('refuses expired, tampered, borrowed or missing signatures with 404', async () => {
    const [a, b] = (await post([small(1), small(2)])).json<NewsItem>().files;
    expect((await t.app.inject({ method: 'GET', url: a!.url })).statusCode).toBe(200);
    const base = `/api/v1/localnews/files/${a!.id}`;
    const sig = new URLSearchParams(a!.url.split('?')[1]).get('sig')!;
    const flipped = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
    const { storage_name } = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('id', '=', a!.id)
      .executeTakeFirstOrThrow();
    const expired = t.app.urlSigner.sign(a!.id, storage_name, Date.now() - 2 * 3600 * 1000);
    const bad = [
      `${base}?${expired}`,
      a!.url.replace(sig, flipped),
      a!.url.replace(/expires=(\d+)/, (_, e: string) => `expires=${Number(e) + 300}`),
      `${base}?${b!.url.split('?')[1]}`,
      base,
      `${base}?expires=abc&sig=${sig}`,
      `${base}?expires=1&expires=2&sig=${sig}`,
      `/api/v1/localnews/files/..%2F..%2Fsecret_key?${a!.url.split('?')[1]}`,
    ];
    for (const url of bad) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
    }
  });

  it('sweeps at start what a crash left: orphan files go, committed staged files are published', async () => {
    const item = (await post([small(9)])).json<NewsItem>();
    const row = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('id', '=', item.files[0]!.id)
      .executeTakeFirstOrThrow();
    // A dead instance's staging folder: one file committed but not yet moved, one never committed.
    const dead = path.join(uploads(), '.tmp', `999999.deadbeef@${stagingHost}`);
    mkdirSync(dead, { recursive: true });
    const { rename } = await import('node:fs/promises');
    await rename(path.join(uploads(), row.storage_name), path.join(dead, row.storage_name));
    writeFileSync(path.join(dead, 'a'.repeat(32)), 'half an upload');
    writeFileSync(path.join(uploads(), 'b'.repeat(32)), 'no row');
    // Our own pid: a folder untouched since before this process started is a previous life's...
    const host = stagingHost;
    const previousLife = path.join(uploads(), '.tmp', `${process.pid}.0badf00d@${host}`);
    mkdirSync(previousLife);
    writeFileSync(path.join(previousLife, 'c'.repeat(32)), 'old');
    const longAgo = new Date(Date.now() - process.uptime() * 1000 - 60_000);
    utimesSync(previousLife, longAgo, longAgo);
    // ...but a fresh one belongs to another app in this process, mid-upload: left alone.
    const sibling = path.join(uploads(), '.tmp', `${process.pid}.cafe0001@${host}`);
    mkdirSync(sibling);
    writeFileSync(path.join(sibling, 'd'.repeat(32)), 'in progress');
    // The same host name in another pid namespace (a container with host networking): pid 999999 may
    // be alive there, mid-upload, so its fresh folder is left alone too.
    const { hostname } = await import('node:os');
    const neighbour = path.join(uploads(), '.tmp', `999999.feed0001@${hostname()}`);
    mkdirSync(neighbour);
    writeFileSync(path.join(neighbour, 'e'.repeat(32)), 'in progress elsewhere');

    await t.restart();
    expect(filesUnder(uploads())).not.toContain('b'.repeat(32));
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(previousLife)).toBe(false);
    expect(existsSync(path.join(sibling, 'd'.repeat(32)))).toBe(true);
    expect(existsSync(path.join(neighbour, 'e'.repeat(32)))).toBe(true);
    rmSync(sibling, { recursive: true });
    rmSync(neighbour, { recursive: true });
    const served = await t.app.inject({ method: 'GET', url: item.files[0]!.url });
    expect(served.body).toBe('file 9\n');
    const stored = (await t.app.db.selectFrom('news_files').select('storage_name').execute())
      .map((r) => r.storage_name)
      .sort();
    expect(filesUnder(uploads()).filter((f) => !f.startsWith('.tmp'))).toEqual(stored);
  });

  it("publishes at start a committed file staged under another host's name, however fresh its folder", async () => {
    // A container that crashed between a commit and its publish, restarted under a new host name: its
    // old folder looks like a live neighbour's, whose in-flight uploads must stay, but its committed
    // file must not wait a day for the sweep of abandoned folders.
    const item = (await post([small(7)])).json<NewsItem>();
    const row = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('id', '=', item.files[0]!.id)
      .executeTakeFirstOrThrow();
    const elsewhere = path.join(uploads(), '.tmp', '1.0ddba11@previous-container');
    mkdirSync(elsewhere, { recursive: true });
    const { rename } = await import('node:fs/promises');
    await rename(path.join(uploads(), row.storage_name), path.join(elsewhere, row.storage_name));
    writeFileSync(path.join(elsewhere, 'e'.repeat(32)), 'an upload in flight');
    expect((await t.app.inject({ method: 'GET', url: item.files[0]!.url })).statusCode).toBe(404);

    await t.restart();
    const served = await t.app.inject({ method: 'GET', url: item.files[0]!.url });
    expect([served.statusCode, served.body]).toEqual([200, 'file 7\n']);
    expect(existsSync(path.join(elsewhere, row.storage_name))).toBe(false);
    expect(existsSync(path.join(elsewhere, 'e'.repeat(32)))).toBe(true);
    rmSync(elsewhere, { recursive: true });
  });
});
