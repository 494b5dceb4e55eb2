import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrlSigner } from '../../src/storage/signed-urls.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { multipartBody } from '../helpers/multipart-body.js';
import { createUser } from '../helpers/users.js';

/**
 * Path tricks (docs/api.md, "Requests and answers" and "What is never lost"): ids that are not ids, and
 * paths that try to climb out of the PDF store or the uploads, answer 404 JSON and never a byte of
 * another file. Sent as raw bytes on a socket (an HTTP
 * client, and inject, would resolve `..` before the server ever saw it), and through inject too.
 * Paths do not depend on the database: SQLite covers them.
 */
const trickyIds = [
  '..',
  '../..',
  '../../secret_key',
  '..%2F..',
  '..%2F..%2Fetc%2Fpasswd',
  '..%2Fsecret_key',
  '..%2Fapp.db',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fapp.db',
  '.%2e/.%2e/secret_key',
  '..%5c..%5capp.db',
  '..\\..\\app.db',
  '%252e%252e%252fsecret_key',
  '%2Fetc%2Fpasswd',
  '%2F',
  '1%2F..%2F..%2Fsecret_key',
  '1/../../secret_key',
  'pdfs%2F..%2Fapp.db',
  '%c0%ae%c0%ae%c0%afsecret_key',
  '99999999999999999999',
  '2147483648',
  '9007199254740993',
  '-1',
  '0',
  '-0',
  '1.0',
  '1.',
  '0x1',
  '%201',
  '1%20',
  '%091',
  '+1',
  '1e0',
  '01',
  '%EF%BC%91',
  '1%00',
  '%00',
  'NaN',
  'Infinity',
  '1;',
  '1,2',
  '[1]',
  '%7B%7D',
  '1%0d%0aX-Injected:%201',
  'x'.repeat(250),
];

/** One request as raw bytes on a socket: no client normalises the path. */
function rawGet(port: number, target: string): Promise<{ status: number; head: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, split).toString('latin1');
      resolve({ status: Number(head.split(' ')[1]), head, body: all.subarray(split + 4) });
    });
    socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  });
}

describe('path tricks', () => {
  let t: TestApp;
  let port: number;
  let secrets: Buffer[];
  let attachment: { id: number; url: string; bytes: Buffer };
  let other: { id: number; url: string };

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
    const user = await createUser(t);
    const bytes = Buffer.from('TOP-SECRET-ATTACHMENT-BYTES '.repeat(4));
    const body = await multipartBody({ title: 't', content: 'c' }, [
      { name: 'a.txt', bytes },
      { name: 'b.txt', bytes: Buffer.from('second file') },
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/localnews/new',
      headers: { authorization: `Token ${user.refresh}`, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const [a, b] = (res.json() as { files: { id: number; url: string }[] }).files;
    attachment = { ...a!, bytes };
    other = b!;
    // What must never leak: the signing key, the database file, and an attachment through a PDF path.
    secrets = [
      Buffer.from(t.config.secretKey),
      readFileSync(path.join(t.dataDir, 'app.db')).subarray(0, 16),
      bytes.subarray(0, 20),
    ];
  });
  afterAll(() => t?.close());

  const leaks = (body: Buffer) =>
    secrets.filter((s) => body.includes(s)).length + (body.includes('root:x:0:0') ? 1 : 0);

  it('serves a real PDF at a plain id (the control)', async () => {
    const res = await rawGet(port, '/download_pdf_by_id/1');
    expect(res.status).toBe(200);
    expect(res.body.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it.each(trickyIds)('GET /download_pdf_by_id/%s is a 404 JSON, through inject and on the wire', async (id) => {
    const target = `/download_pdf_by_id/${id}`;
    const wire = await rawGet(port, target);
    expect(wire.status, wire.head).toBe(404);
    expect(wire.head).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(wire.body.toString())).toEqual({ detail: 'Not found.' });
    expect(leaks(wire.body)).toBe(0);
    // inject parses the URL as a browser would, resolving dot segments: only the wire sees them as sent.
    if (new URL(target, 'http://x').pathname !== target) return;
    const injected = await t.app.inject({ method: 'GET', url: target });
    expect(injected.statusCode).toBe(404);
    expect(injected.json()).toEqual({ detail: 'Not found.' });
  });

  it('downloads the attachment by its genuine signed link (the control)', async () => {
    const res = await rawGet(port, attachment.url);
    expect(res.status).toBe(200);
    expect(res.body.equals(attachment.bytes)).toBe(true);
  });

  it('refuses forged attachment links with 404 JSON and none of the bytes', async () => {
    const signer = createUrlSigner(t.config.secretKey);
    const { storage_name: name } = await t.app.db
      .selectFrom('news_files')
      .select('storage_name')
      .where('id', '=', attachment.id)
      .executeTakeFirstOrThrow();
    const u = new URL(attachment.url, 'http://x');
    const q = (id: number | string, query: string) => `/api/v1/localnews/files/${id}?${query}`;
    const genuine = u.search.slice(1);
    const sig = u.searchParams.get('sig')!;
    const expires = u.searchParams.get('expires')!;
    const forged = [
      ...trickyIds.map((id) => q(id, genuine)),
      q(other.id, genuine), // file A's signature on file B
      q(attachment.id, `expires=${expires}&sig=${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`),
      q(attachment.id, `expires=${Number(expires) + 300}&sig=${sig}`),
      q(attachment.id, signer.sign(attachment.id, name, Date.now() - 2 * 3600_000)), // genuine but expired
      q(attachment.id, signer.sign(attachment.id, name, Date.now() + 30 * 86400_000)), // genuine but lives too long
      q(attachment.id, `expires=${expires}`),
      q(attachment.id, `sig=${sig}`),
      q(attachment.id, `expires=${expires}&sig=`),
      q(attachment.id, `expires[]=${expires}&sig[]=${sig}`),
      q(attachment.id, `expires=${expires}&sig=${sig}%00`),
      q(attachment.id, `expires=${expires}&sig=${Buffer.from(sig, 'base64url').toString('base64')}`),
      q(attachment.id, `expires=+${expires}&sig=${sig}`),
      q(attachment.id, `expires=${expires}.0&sig=${sig}`),
      `/api/v1/localnews/files/../../../secret_key?${genuine}`,
      `/api/v1/localnews/files/${attachment.id}/../../../../secret_key?${genuine}`,
    ];
    const wrong: string[] = [];
    for (const target of forged) {
      const res = await rawGet(port, target);
      let body: unknown;
      try {
        body = JSON.parse(res.body.toString());
      } catch {
        body = res.body.toString().slice(0, 80);
      }
      if (res.status !== 404 || JSON.stringify(body) !== '{"detail":"Not found."}' || leaks(res.body) > 0)
        wrong.push(`${target} -> ${res.status} ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
    expect(forged.length).toBeGreaterThan(55);
  });
});
