import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildLargePdf } from '../../src/pdfs/demo-pdfs.js';
import { sendFileLimits } from '../../src/storage/send-file-range.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { filesUnder } from '../helpers/files.js';
import { rawGet } from '../helpers/raw-http.js';

describe.each(dialects)('GET /download_pdf_by_id/{id} (%s)', (dialect) => {
  let t: TestApp;
  let pdf1: Buffer;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    pdf1 = (await t.app.inject({ method: 'GET', url: '/download_pdf_by_id/1' })).rawPayload;
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('seeds the three demo PDFs on first start; id 3 has at least three pages', async () => {
    const rows = await t.app.db.selectFrom('pdfs').select(['id', 'file_name']).orderBy('id').execute();
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3]);
    for (const id of [1, 2, 3]) {
      const body = (await get(`/download_pdf_by_id/${id}`)).rawPayload;
      expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    }
    const third = await PDFDocument.load((await get('/download_pdf_by_id/3')).rawPayload);
    expect(third.getPageCount()).toBeGreaterThanOrEqual(3);
  });

  it('seeds only once: a restart keeps the same files and ETags', async () => {
    const before = (await get('/download_pdf_by_id/2')).headers.etag;
    await t.restart();
    expect((await get('/download_pdf_by_id/2')).headers.etag).toBe(before);
    expect((await t.app.db.selectFrom('pdfs').select('id').execute()).length).toBe(3);
  });

  it('seeds safely when several instances start at once on the same data', async () => {
    await t.app.db.deleteFrom('pdfs').execute();
    rmSync(path.join(t.dataDir, 'pdfs'), { recursive: true, force: true });
    const apps = await Promise.all([buildApp(t.config), buildApp(t.config), buildApp(t.config)]);
    try {
      expect((await t.app.db.selectFrom('pdfs').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([
        1, 2, 3,
      ]);
      expect(filesUnder(path.join(t.dataDir, 'pdfs')).filter((f) => !f.startsWith('.tmp'))).toHaveLength(3);
      const etags = await Promise.all(
        apps.map(async (app) => (await app.inject({ method: 'GET', url: '/download_pdf_by_id/3' })).headers.etag),
      );
      expect(new Set(etags).size).toBe(1);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
    await t.restart(); // the suite's own app forgets its cached metadata of the old files
  });

  it('answers 200 with the file, its name, length, strong ETag and caching headers', async () => {
    const res = await get('/download_pdf_by_id/1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"/\\]+\.pdf"; filename\*=UTF-8''/);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    expect(res.headers.etag).toBe(`"${createHash('sha256').update(res.rawPayload).digest('hex')}"`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.app.inject({ method: 'HEAD', url: '/download_pdf_by_id/1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(pdf1.length));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 304 for a matching If-None-Match, and 200 for another tag', async () => {
    const etag = String((await get('/download_pdf_by_id/1')).headers.etag);
    const same = await get('/download_pdf_by_id/1', { 'if-none-match': `"nope", W/${etag}` });
    expect(same.statusCode).toBe(304);
    expect(same.rawPayload.length).toBe(0);
    expect(same.headers.etag).toBe(etag);
    expect((await get('/download_pdf_by_id/1', { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('answers 206 with exact bytes for a single range', async () => {
    const size = pdf1.length;
    const cases: [string, number, number][] = [
      ['bytes=0-99', 0, 99],
      ['bytes=100-', 100, size - 1],
      ['bytes=-50', size - 50, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const res = await get('/download_pdf_by_id/1', { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range']).toBe(`bytes ${start}-${end}/${size}`);
      expect(res.headers['content-length']).toBe(String(end - start + 1));
      expect(res.rawPayload.equals(pdf1.subarray(start, end + 1)), range).toBe(true);
    }
  });

  it('answers 416 for an unsatisfiable range, and the whole file when If-Range no longer matches', async () => {
    const res = await get('/download_pdf_by_id/1', { range: `bytes=${pdf1.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${pdf1.length}`);
    expect(res.json()).toEqual({ detail: 'Requested range not satisfiable.' });
    const stale = await get('/download_pdf_by_id/1', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.length).toBe(pdf1.length);
  });

  it('answers 404 JSON for unknown and malformed ids, never a file outside the store', async () => {
    const urls = [
      '/download_pdf_by_id/999',
      '/download_pdf_by_id/0',
      '/download_pdf_by_id/-1',
      '/download_pdf_by_id/01',
      '/download_pdf_by_id/abc',
      '/download_pdf_by_id/1.0',
      '/download_pdf_by_id/99999999999999999999',
      '/download_pdf_by_id/2147483648',
      '/download_pdf_by_id/..',
      '/download_pdf_by_id/../..',
      '/download_pdf_by_id/..%2F..%2Fsecret_key',
      '/download_pdf_by_id/1%2F',
      '/download_pdf_by_id/%2e%2e',
      '/download_pdf_by_id/',
      '/download_pdf_by_id',
      '/download_pdf_by_id/1/2',
    ];
    for (const url of urls) {
      // Over a real socket: inject would resolve the dot segments before the server saw them.
      const res = await rawGet(t.app, url);
      expect(res.status, url).toBe(404);
      expect(JSON.parse(res.body), url).toEqual({ detail: 'Not found.' });
    }
  });

  it('answers 404 to every method for a malformed id, and 405 with Allow for a well-formed one', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/download_pdf_by_id/abc', '/download_pdf_by_id/01', '/download_pdf_by_id/0']) {
        const res = await t.app.inject({ method, url });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual({ detail: 'Not found.' });
      }
      const known = await t.app.inject({ method, url: '/download_pdf_by_id/1' });
      expect(known.statusCode, method).toBe(405);
      expect(known.headers.allow).toBe('GET, HEAD');
    }
    expect((await t.app.inject({ method: 'HEAD', url: '/download_pdf_by_id/abc' })).statusCode).toBe(404);
  });

  it('serves a PDF added later under the next id', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = Buffer.from(await doc.save());
    const { writeFileSync } = await import('node:fs');
    const file = `${t.dataDir}/added.pdf`;
    writeFileSync(file, bytes);
    const meta = await t.app.pdfStore.add({ file }, { fileName: 'added.pdf', title: 'Added' });
    expect(meta?.id).toBe(4);
    const res = await get('/download_pdf_by_id/4');
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect(res.headers['content-disposition']).toMatch(/filename="added.pdf"/);
    expect(await t.app.pdfStore.add({ file }, { id: 4, fileName: 'again.pdf', title: 'Again' })).toBeUndefined();
  });

  it('serves a large PDF (streamed from disk, not kept in memory) whole and by range, and a small one again', async () => {
    const bytes = Buffer.from(await buildLargePdf(3 * 1024 * 1024));
    const file = path.join(t.dataDir, 'large.pdf');
    writeFileSync(file, bytes);
    const meta = await t.app.pdfStore.add({ file }, { fileName: 'large.pdf', title: 'Large' });
    const url = `/download_pdf_by_id/${meta!.id}`;
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
    // Sent by hand (storage/send-file-range.ts), with the headers Fastify would have sent.
    expect(whole.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(bytes.length),
      'content-disposition': 'attachment; filename="large.pdf"; filename*=UTF-8\'\'large.pdf',
      etag: meta!.etag,
      'accept-ranges': 'bytes',
      'x-content-type-options': 'nosniff',
    });
    const part = await get(url, { range: 'bytes=1000000-1000099' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000000-1000099/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(1_000_000, 1_000_100))).toBe(true);
    // Its file gone, a large PDF answers 404 (nothing of it was kept); a small one is served as before.
    rmSync(meta!.path);
    expect((await get(url)).statusCode).toBe(404);
    const again = await get('/download_pdf_by_id/1');
    expect(again.rawPayload.equals(pdf1)).toBe(true);
  });
});

/** One large PDF for every suite of the file: building it takes seconds. */
let largePdf: Promise<Uint8Array> | undefined;
/** Larger than what the kernel's socket buffers hold on loopback, so a client that stops reading stalls it. */
const largePdfBytes = () => (largePdf ??= buildLargePdf(16 * 1024 * 1024));

describe.each(dialects)('PDF download failures (%s)', (dialect) => {
  let t: TestApp;
  const lines: { level: number; msg: string; id?: number; err?: { code?: string } }[] = [];
  beforeAll(async () => {
    const logStream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    t = await buildTestApp(dialect, { LOG_LEVEL: 'warn' }, { logStream });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    lines.length = 0;
  });

  let added = 0;
  /** A PDF of its own per test: small ones are kept in memory after their first download. */
  async function addPdf(kind: 'small' | 'large') {
    let bytes: Uint8Array;
    if (kind === 'large') bytes = await largePdfBytes();
    else {
      const doc = await PDFDocument.create();
      doc.addPage();
      bytes = await doc.save();
    }
    const file = path.join(t.dataDir, `source-${(added += 1)}.pdf`);
    writeFileSync(file, bytes);
    const meta = (await t.app.pdfStore.add({ file }, { fileName: `${kind}.pdf`, title: kind }))!;
    return { ...meta, url: `/download_pdf_by_id/${meta.id}` };
  }
  const call = (method: 'GET' | 'HEAD', url: string) => t.app.inject({ method, url });
  const errorLines = () => lines.filter((line) => line.level >= 50);

  it('answers HEAD as GET when the file is missing: 404 without caching headers, logged the same', async () => {
    for (const kind of ['small', 'large'] as const) {
      const pdf = await addPdf(kind);
      rmSync(pdf.path);
      lines.length = 0;
      const head = await call('HEAD', pdf.url);
      const get = await call('GET', pdf.url);
      for (const res of [head, get]) {
        expect(res.statusCode, `${res.raw.req.method} ${kind}`).toBe(404);
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers['cache-control']).toBeUndefined();
      }
      expect(get.json()).toEqual({ detail: 'Not found.' });
      const missing = expect.objectContaining({ level: 50, msg: 'PDF row without its file', id: pdf.id });
      expect(errorLines(), kind).toEqual([missing, missing]);
    }
  });

  it('answers 500 (not 404) and logs an error when the file is there but cannot be read', async () => {
    // Tests may run as root, where chmod does not stop a read: a directory in the file's place fails
    // the read of a small PDF (EISDIR), a symbolic link to itself the open of a large one (ELOOP).
    for (const [kind, code] of [
      ['small', 'EISDIR'],
      ['large', 'ELOOP'],
    ] as const) {
      const pdf = await addPdf(kind);
      rmSync(pdf.path);
      if (kind === 'small') mkdirSync(pdf.path);
      else symlinkSync(pdf.path, pdf.path);
      lines.length = 0;
      for (const method of ['GET', 'HEAD'] as const) {
        const res = await call(method, pdf.url);
        expect(res.statusCode, `${method} ${kind}`).toBe(500);
        expect(res.headers.etag).toBeUndefined();
        expect(res.headers['cache-control']).toBeUndefined();
        if (method === 'GET') expect(res.json()).toEqual({ detail: 'A server error occurred.' });
      }
      const failed = expect.objectContaining({ level: 50, err: expect.objectContaining({ code }) });
      expect(errorLines(), kind).toEqual([failed, failed]);
      expect(errorLines().map((line) => line.msg)).not.toContain('PDF row without its file');
    }
  });

  it('gives up on a client that reads the headers and then stops reading: connection closed, file closed', async () => {
    const pdf = await addPdf('large');
    const opened: FileHandle[] = [];
    const read = t.app.pdfStore.read.bind(t.app.pdfStore);
    const spy = vi.spyOn(t.app.pdfStore, 'read').mockImplementation(async (...args) => {
      const body = await read(...args);
      if (!Buffer.isBuffer(body)) opened.push(body);
      return body;
    });
    const limit = sendFileLimits.drainTimeoutMs;
    sendFileLimits.drainTimeoutMs = 300;
    if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    try {
      socket.on('error', () => {}); // the server resets the connection: that is the point
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      const first = new Promise<Buffer>((resolve) => {
        socket.once('data', (chunk: Buffer) => {
          socket.pause(); // and never reads again until the server has given up
          resolve(chunk);
        });
      });
      socket.write(`GET ${pdf.url} HTTP/1.1\r\nHost: app.test\r\n\r\n`);
      expect((await first).toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);
      expect(opened).toHaveLength(1);
      await vi.waitFor(() => expect(opened[0]!.fd).toBe(-1), { timeout: 5_000, interval: 50 });
      // Only now does the client read again: it gets what the buffers held, then the end, never the whole file.
      let received = (await first).length;
      socket.on('data', (chunk: Buffer) => (received += chunk.length));
      socket.resume();
      await closed;
      expect(received).toBeLessThan(pdf.size);
      expect(errorLines()).toEqual([]); // a client that stops reading is not the server's failure
    } finally {
      socket.destroy();
      sendFileLimits.drainTimeoutMs = limit;
      spy.mockRestore();
    }
  });
});
