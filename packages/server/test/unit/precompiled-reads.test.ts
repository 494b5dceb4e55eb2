import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { newsRevision } from '../../src/repositories/news.js';

// Precompiled reads on SQLite skip Kysely's driver (db/sqlite-statements.ts, readNow); they must
// never see what an open transaction has written but not committed.
describe('precompiled reads on SQLite', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'precompiled-'));
    handle = openDatabase({ dataDir: dir, databaseUrl: undefined });
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('read the committed value at once, outside any transaction', async () => {
    const before = await newsRevision(handle.db);
    await handle.db
      .updateTable('news_revision')
      .set({ revision: before + 5 })
      .where('id', '=', 1)
      .execute();
    expect(await newsRevision(handle.db)).toBe(before + 5);
  });

  it('wait for an open transaction instead of reading its uncommitted writes', async () => {
    const before = await newsRevision(handle.db);
    let readDuring: Promise<number> | undefined;
    const undone = handle.db
      .transaction()
      .execute(async (trx) => {
        await trx
          .updateTable('news_revision')
          .set({ revision: before + 1 })
          .where('id', '=', 1)
          .execute();
        readDuring = newsRevision(handle.db); // another request, while this transaction is open
        await new Promise((resolve) => setTimeout(resolve, 20));
        throw new Error('undo');
      })
      .catch((error: Error) => error.message);
    expect(await undone).toBe('undo');
    expect(await readDuring).toBe(before);
  });
});
