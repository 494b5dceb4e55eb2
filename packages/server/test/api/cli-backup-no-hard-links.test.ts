import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { link } from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { createUser } from '../helpers/users.js';

// link() as the real one, until a test makes it fail as a filesystem without hard links does.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return { ...actual, link: vi.fn(actual.link) };
});
const realLink = (await vi.importActual<typeof import('node:fs/promises')>('node:fs/promises')).link;

/** link(FILE.partial, FILE) fails with `code`, as on vfat or many SMB mounts; `before` runs first. */
function noHardLinksTo(file: string, code: string, before = () => {}) {
  vi.mocked(link).mockImplementation(async (from, to) => {
    if (to !== file) return realLink(from, to);
    before();
    throw Object.assign(new Error(`${code}: operation not permitted, link '${String(from)}' -> '${file}'`), { code });
  });
}

/** `backup FILE` where FILE's filesystem cannot make hard links: the checked copy is copied into place. */
describe.runIf(dialects.includes('sqlite'))('hello-admin backup without hard links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());
  afterEach(() => vi.mocked(link).mockReset().mockImplementation(realLink));

  it.each(['EPERM', 'ENOTSUP', 'ENOSYS', 'EXDEV'])('copies FILE into place when link fails with %s', async (code) => {
    const user = await createUser(t);
    const file = path.join(t.dataDir, `copy-${code}.db`);
    noHardLinksTo(file, code);
    const res = await cli(t, ['backup', file]);
    expect(res).toMatchObject({ code: 0, err: '' });
    expect(res.out).toContain(`to ${file} (`);
    expect(vi.mocked(link)).toHaveBeenCalledWith(`${file}.partial`, file);
    // No FILE.partial left: one file to keep, complete and checked.
    expect(readdirSync(t.dataDir).filter((name) => name.startsWith(`copy-${code}.db`))).toEqual([`copy-${code}.db`]);
    const copy = new SQLite(file, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.prepare('select email from users where id = ?').get(user.userId)).toEqual({ email: user.email });
    } finally {
      copy.close();
    }
  });

  it('still never overwrites a FILE that appeared while the copy was made', async () => {
    const file = path.join(t.dataDir, 'raced.db');
    noHardLinksTo(file, 'EPERM', () => writeFileSync(file, 'someone else’s'));
    const res = await cli(t, ['backup', file]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('exists already');
    expect(readFileSync(file, 'utf8')).toBe('someone else’s');
    expect(existsSync(`${file}.partial`)).toBe(false);
  });

  it('reports any other link failure as before', async () => {
    const file = path.join(t.dataDir, 'denied.db');
    noHardLinksTo(file, 'EACCES');
    const res = await cli(t, ['backup', file]);
    expect(res.code).toBe(1);
    expect(res.err).toContain('Cannot back up to');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.partial`)).toBe(false);
  });
});
