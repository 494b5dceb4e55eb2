import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { uniqueEmail } from '../helpers/users.js';

const run = promisify(execFile);
const serverDir = path.resolve(import.meta.dirname, '../..');

describe.each(dialects)('hello-admin (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/token/', payload: { email, password } });

  it('create-user makes an account that can log in', async () => {
    const email = uniqueEmail('admin');
    const res = await cli(t, ['create-user', email, '--password', 'violet crane harbour']);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toMatch(new RegExp(`^Created user \\d+: ${email}$`));
    const answer = await login(email, 'violet crane harbour');
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ access: expect.any(String), refresh: expect.any(String) });
    const row = await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('create-user keeps an internationalized domain in ASCII, as a registration does', async () => {
    const local = uniqueEmail('idn').split('@')[0]!;
    const res = await cli(t, ['create-user', `${local}@Bücher.de`, '--password', 'violet crane harbour']);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toMatch(new RegExp(`^Created user \\d+: ${local}@xn--bcher-kva\\.de$`));
    expect((await login(`${local}@bücher.de`, 'violet crane harbour')).statusCode).toBe(200);
  });

  it('create-user reads the password from standard input when not given', async () => {
    const email = uniqueEmail('piped');
    expect((await cli(t, ['create-user', email], { stdin: 'amber walrus lantern\nignored\n' })).code).toBe(0);
    expect((await login(email, 'amber walrus lantern')).statusCode).toBe(200);
  });

  it('create-user refuses a taken address, a weak password and a wrong usage', async () => {
    const email = uniqueEmail('twice');
    await cli(t, ['create-user', email, '--password', 'violet crane harbour']);
    const taken = await cli(t, ['create-user', email.toUpperCase(), '--password', 'violet crane harbour']);
    expect(taken).toMatchObject({ code: 1, err: expect.stringContaining('exists already') });
    const weak = await cli(t, ['create-user', uniqueEmail(), '--password', '1234']);
    expect(weak.code).toBe(1);
    expect(weak.err).toContain('This password is too short. It must contain at least 8 characters.');
    expect((await cli(t, ['create-user'])).code).toBe(2);
    expect((await cli(t, ['create-user', 'a@b.c', '--pasword', 'x'])).code).toBe(2);
    expect((await cli(t, ['no-such-command'])).code).toBe(2);
  });

  it('add-pdf copies a PDF into the store, list-pdfs lists it, the server serves it', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = Buffer.from(await doc.save());
    const file = path.join(t.dataDir, 'Hand book.pdf');
    writeFileSync(file, bytes);
    const added = await cli(t, ['add-pdf', file, '--title', 'Handbook']);
    expect(added.code).toBe(0);
    expect(added.out).toBe(`Added PDF 4: Hand book.pdf (${bytes.length} bytes), served at /download_pdf_by_id/4`);
    const served = await t.app.inject({ method: 'GET', url: '/download_pdf_by_id/4' });
    expect(served.rawPayload.equals(bytes)).toBe(true);
    const listed = await cli(t, ['list-pdfs']);
    expect(
      listed.out
        .split('\n')
        .filter((l) => /^\s+\d+\s/.test(l))
        .map((l) => Number(l.trim().split(/\s+/)[0])),
    ).toEqual([1, 2, 3, 4]);
    expect(listed.out).toMatch(/4\s+\d+\s+Hand book\.pdf\s+Handbook/);
  });

  it('add-pdf refuses what is not a PDF, a taken id and a bad id', async () => {
    const text = path.join(t.dataDir, 'notes.pdf');
    writeFileSync(text, 'just text, named .pdf');
    expect(await cli(t, ['add-pdf', text])).toMatchObject({ code: 1, err: expect.stringContaining('not a PDF') });
    const pdf = path.join(t.dataDir, 'real.pdf');
    writeFileSync(pdf, Buffer.from(await (await PDFDocument.create()).save()));
    expect(await cli(t, ['add-pdf', pdf, '--id', '1'])).toMatchObject({
      code: 1,
      err: expect.stringContaining('taken'),
    });
    expect((await cli(t, ['add-pdf', pdf, '--id', '-3'])).code).toBe(2);
    expect(await cli(t, ['add-pdf', path.join(t.dataDir, 'missing.pdf')])).toMatchObject({
      code: 1,
      err: expect.stringContaining('no such file'),
    });
    expect((await t.app.db.selectFrom('pdfs').select('id').where('id', '>', 4).execute()).length).toBe(0);
  });

  it('mail prints the newest mails of the outbox folder, decoded', async () => {
    // Named as mails of a later day than any the other tests queued (their notices land here too).
    const dir = path.join(t.dataDir, 'mail');
    mkdirSync(dir, { recursive: true });
    const eml = (subject: string, body: string) =>
      `From: no-reply@localhost\nTo: a@example.com\nSubject: ${subject}\nDate: Sun, 22 Nov 2026 10:00:00 +0000\n` +
      `Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n${body}\n`;
    writeFileSync(path.join(dir, '20991122T100000Z-000001.eml'), eml('Older', 'first'));
    writeFileSync(
      path.join(dir, '20991122T100500Z-000002.eml'),
      eml('=?UTF-8?Q?R=C3=A9initialiser?=', 'Open http://app.test/resetnewpassword?token=3D=\nabc and caf=C3=A9'),
    );
    const res = await cli(t, ['mail', '--last', '1']);
    expect(res.code).toBe(0);
    expect(res.out).toContain('Subject: Réinitialiser');
    expect(res.out).toContain('Open http://app.test/resetnewpassword?token=abc and café');
    expect(res.out).not.toContain('Older');
    expect((await cli(t, ['mail'])).out).toContain('Subject: Older');
    expect((await cli(t, ['mail', '--last', 'zero'])).code).toBe(2);
  });
});

describe('hello-admin as a real process', () => {
  let t: TestApp;
  beforeAll(async () => {
    await run('npx', ['tsc', '-b'], { cwd: serverDir }); // dist/cli.js up to date
    t = await buildTestApp('sqlite');
    await t.app.close(); // the spawned process opens the data itself
  }, 180_000);
  afterAll(() => t.close().catch(() => {}));

  it('runs from dist/cli.js with the environment as configuration', async () => {
    const env = { ...process.env, DATA_DIR: t.dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
    const { stdout } = await run(process.execPath, ['dist/cli.js', 'list-pdfs'], { cwd: serverDir, env });
    expect(stdout).toMatch(/^\s+id\s+bytes/);
    expect(stdout.trim().endsWith('3 PDFs')).toBe(true);
    const failed = await run(process.execPath, ['dist/cli.js', 'add-pdf'], { cwd: serverDir, env }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: hello-admin add-pdf') });
  });
});
