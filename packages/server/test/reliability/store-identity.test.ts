import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';
import { cli } from '../helpers/cli.js';
import { filesUnder } from '../helpers/files.js';
import { multipart } from '../helpers/multipart.js';
import { createPgDatabase } from '../helpers/pg-database.js';
import { createUser, tokenAuth } from '../helpers/users.js';

/**
 * DATA_DIR is tied to its database (storage/store-identity.ts): the start-up sweep deletes every file
 * no row names, so a start on another database must stop before it, with every file kept.
 */
describe.each(dialects)('DATA_DIR and its database (%s)', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A store in use: the demo PDFs and one news item with a file. */
  async function storeInUse(): Promise<{ t: TestApp; files: string[] }> {
    const t = await buildTestApp(dialect);
    cleanups.push(() => t.close());
    const user = await createUser(t);
    const body = multipart({ title: 'Kept', content: 'Its file must survive' }, [{ filename: 'a.txt', data: 'a\n' }]);
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/localnews/new',
      headers: { ...tokenAuth(user), ...body.headers },
      payload: body.payload,
    });
    expect(posted.statusCode, posted.body).toBe(201);
    const files = filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f));
    expect(files.filter((f) => f.startsWith('uploads/'))).toHaveLength(1);
    expect(files.filter((f) => f.startsWith('pdfs/'))).toHaveLength(3);
    return { t, files };
  }

  /**
   * The same DATA_DIR with a database of its own: a new PostgreSQL database, or (SQLite) the store's
   * app.db moved aside and, unless `made` by the start (a DATA_DIR without store_id), another
   * store's put in its place; `ownAgain` puts it back.
   */
  async function anotherDatabase(
    t: TestApp,
    { made = false } = {},
  ): Promise<{ env: Record<string, string>; ownAgain: () => void }> {
    await t.app.close();
    if (dialect === 'postgres') {
      const other = await createPgDatabase();
      cleanups.push(other.drop);
      return { env: { DATABASE_URL: other.url }, ownAgain: () => {} };
    }
    const files = ['app.db', 'app.db-wal', 'app.db-shm'].map((name) => path.join(t.dataDir, name));
    const aside = mkdtempSync(path.join(tmpdir(), 'hello-own-db-'));
    cleanups.push(async () => rmSync(aside, { recursive: true, force: true }));
    for (const file of files) if (existsSync(file)) renameSync(file, path.join(aside, path.basename(file)));
    if (!made) {
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'hello-other-db-'));
      cleanups.push(async () => rmSync(elsewhere, { recursive: true, force: true }));
      await (await buildApp(loadConfig({ DATA_DIR: elsewhere, LOG_LEVEL: 'silent' }))).close();
      copyFileSync(path.join(elsewhere, 'app.db'), files[0]!);
    }
    return {
      env: {},
      ownAgain: () => {
        for (const file of files) {
          rmSync(file, { force: true });
          const kept = path.join(aside, path.basename(file));
          if (existsSync(kept)) renameSync(kept, file);
        }
      },
    };
  }

  const start = (t: TestApp, env: Record<string, string>) =>
    buildApp(
      loadConfig({
        DATA_DIR: t.dataDir,
        LOG_LEVEL: 'silent',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
        ...env,
      }),
    );

  it('binds a new DATA_DIR to its database, and starts again on the pair', async () => {
    const { t, files } = await storeInUse();
    const row = await t.app.db.selectFrom('store_identity').select('store_id').executeTakeFirstOrThrow();
    expect(row.store_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(readFileSync(path.join(t.dataDir, 'store_id'), 'utf8')).toBe(`${row.store_id}\n`);
    const again = await t.restart();
    expect((await again.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f))).toEqual(files);
  });

  it('refuses to start on another database, and deletes no file', async () => {
    const { t, files } = await storeInUse();
    const { env, ownAgain } = await anotherDatabase(t);
    await expect(start(t, env)).rejects.toThrow(
      /DATA_DIR \(.*\) does not belong to this database: it was last used with a database whose id is [0-9a-f-]{36}/,
    );
    expect(filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f))).toEqual(files);
    // The CLI builds the same app: it refuses the same way, with the message alone and exit status 1.
    const res = await cli(t, ['list-pdfs'], { env: dialect === 'postgres' ? env : {} });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^Invalid configuration:\n {2}- DATA_DIR \(.*\) does not belong to this database/);
    expect(res.out).toBe('');
    expect(filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f))).toEqual(files);
    // Its own database again: it starts, its files all there.
    ownAgain();
    const own = await t.restart();
    expect((await own.inject({ method: 'GET', url: '/download_pdf_by_id/3' })).statusCode).toBe(200);
  });

  it('binds a DATA_DIR of a version before the check to a database that names its files, not to one that names none', async () => {
    const { t, files } = await storeInUse();
    const idFile = path.join(t.dataDir, 'store_id');
    const id = readFileSync(idFile, 'utf8');
    rmSync(idFile); // as a DATA_DIR of a version before the check
    const own = await t.restart();
    expect(readFileSync(idFile, 'utf8')).toBe(id);
    expect((await own.inject({ method: 'GET', url: '/download_pdf_by_id/1' })).statusCode).toBe(200);

    rmSync(idFile);
    const { env } = await anotherDatabase(t, { made: true });
    await expect(start(t, env)).rejects.toThrow(/holds uploads or PDFs and this database names none of them/);
    // Refused again, by the server or the cli: the database it made stays empty, and no file goes.
    const res = await cli(t, ['list-pdfs'], { env });
    expect(res.code).toBe(1);
    expect(res.err).toContain('move uploads/ and pdfs/ out of DATA_DIR and start again');
    expect(filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f))).toEqual(files);
    expect(existsSync(idFile)).toBe(false);
  });

  it.runIf(dialect === 'sqlite')(
    'refuses a DATA_DIR bound to a database with no app.db, before making an empty one',
    async () => {
      const { t, files } = await storeInUse();
      await t.app.close();
      for (const name of ['app.db', 'app.db-wal', 'app.db-shm']) rmSync(path.join(t.dataDir, name), { force: true });
      await expect(start(t, {})).rejects.toThrow(/holds no app\.db, and DATABASE_URL is not set/);
      expect(existsSync(path.join(t.dataDir, 'app.db'))).toBe(false);
      const res = await cli(t, ['list-pdfs']);
      expect(res.code).toBe(1);
      expect(res.err).toContain('If this deployment runs on PostgreSQL, set DATABASE_URL');
      expect(existsSync(path.join(t.dataDir, 'app.db'))).toBe(false);
      expect(filesUnder(t.dataDir).filter((f) => /^(uploads|pdfs)\//.test(f))).toEqual(files);
    },
  );

  it('says which file to remove when the database is the right one', async () => {
    const { t } = await storeInUse();
    await t.app.close();
    writeFileSync(path.join(t.dataDir, 'store_id'), '00000000-0000-4000-8000-000000000000\n');
    await expect(start(t, {})).rejects.toThrow(/remove DATA_DIR\/store_id and start again/);
    rmSync(path.join(t.dataDir, 'store_id'));
    expect((await (await t.restart()).inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
