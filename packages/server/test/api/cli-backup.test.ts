import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { createUser } from '../helpers/users.js';

/** `hello-admin backup FILE` (docs/api.md, "Operating the product"); under write load: test/reliability/backup-under-load.test.ts. */
describe.each(dialects)('hello-admin backup (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  it('refuses a wrong usage with exit status 2', async () => {
    expect(await cli(t, ['backup'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('Usage: hello-admin backup FILE'),
    });
    expect((await cli(t, ['backup', 'a.db', 'b.db'])).code).toBe(2);
    expect((await cli(t, ['backup', 'a.db', '--force'])).code).toBe(2);
  });

  if (dialect === 'postgres') {
    it('refuses on PostgreSQL and names pg_dump', async () => {
      const file = path.join(t.dataDir, 'pg.db');
      const res = await cli(t, ['backup', file]);
      expect(res.code).toBe(1);
      expect(res.err).toContain('pg_dump --format=custom "$DATABASE_URL" > backup.dump');
      expect(existsSync(file)).toBe(false);
    });
    return;
  }

  it('writes a consistent copy that holds the data, as one file', async () => {
    const user = await createUser(t);
    const file = path.join(t.dataDir, 'copy.db');
    const res = await cli(t, ['backup', file]);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toContain(`to ${file} (`);
    expect(res.out).toContain('DATA_DIR/uploads/ and DATA_DIR/pdfs/');
    // No FILE.partial left, no -wal or -shm beside the copy: one file to keep.
    expect(readdirSync(t.dataDir).filter((name) => name.startsWith('copy.db'))).toEqual(['copy.db']);
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      expect(copy.prepare('select email from users where id = ?').get(user.userId)).toEqual({ email: user.email });
      expect(copy.prepare('select count(*) as n from pdfs').get()).toEqual({ n: 3 });
    } finally {
      copy.close();
    }
  });

  it('never overwrites an existing FILE', async () => {
    const file = path.join(t.dataDir, 'precious.db');
    writeFileSync(file, 'an older backup');
    const res = await cli(t, ['backup', file]);
    expect(res).toMatchObject({ code: 1, err: expect.stringContaining('exists already') });
    expect(readFileSync(file, 'utf8')).toBe('an older backup');
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('fails cleanly into a folder that does not exist', async () => {
    const file = path.join(t.dataDir, 'no-such-folder', 'copy.db');
    const res = await cli(t, ['backup', file]);
    expect(res).toMatchObject({ code: 1, err: expect.stringContaining('Cannot back up to') });
    expect(existsSync(path.dirname(file))).toBe(false);
  });

  it('replaces a FILE.partial an interrupted backup left', async () => {
    const file = path.join(t.dataDir, 'retry.db');
    writeFileSync(`${file}.partial`, 'half a copy');
    expect((await cli(t, ['backup', file])).code).toBe(0);
    expect(existsSync(`${file}.partial`)).toBe(false);
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      copy.close();
    }
  });
});
