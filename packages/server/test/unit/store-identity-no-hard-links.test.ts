import { linkSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildTestApp } from '../helpers/build.js';

// linkSync() as the real one (storage/write-once.ts), until a test makes it fail as a filesystem
// without hard links does.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return { ...actual, linkSync: vi.fn(actual.linkSync) };
});
const realLink = (await vi.importActual<typeof import('node:fs')>('node:fs')).linkSync;

/** DATA_DIR/store_id (storage/store-identity.ts) on a filesystem that cannot make hard links (vfat, SMB). */
describe('DATA_DIR/store_id without hard links', () => {
  afterEach(() => vi.mocked(linkSync).mockReset().mockImplementation(realLink));

  it.each(['EPERM', 'ENOTSUP', 'ENOSYS'])(
    'is written in place when link fails with %s, and read on the next start',
    async (code) => {
      vi.mocked(linkSync).mockImplementation((from, to) => {
        if (path.basename(String(to)) === 'store_id') throw Object.assign(new Error(`${code}: link`), { code });
        return realLink(from, to);
      });
      const t = await buildTestApp('sqlite');
      try {
        const row = await t.app.db.selectFrom('store_identity').select('store_id').executeTakeFirstOrThrow();
        expect(readFileSync(path.join(t.dataDir, 'store_id'), 'utf8')).toBe(`${row.store_id}\n`);
        expect(readdirSync(t.dataDir).filter((name) => name.startsWith('store_id.'))).toEqual([]); // no temporary file left
        const again = await t.restart();
        expect((await again.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      } finally {
        await t.close();
      }
    },
  );
});
