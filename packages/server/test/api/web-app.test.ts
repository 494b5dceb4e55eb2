import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoutes } from '@hello/contract';
import { buildTestApp, dialects, type TestApp } from '../helpers/build.js';

const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("hello all");'.repeat(40);

/** A stand-in for packages/web/dist: index.html, one hashed asset (with its .br), a favicon. */
function fakeDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'hello-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), INDEX);
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe.each(dialects)('the web app (%s)', (dialect) => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = fakeDist();
    t = await buildTestApp(dialect, { WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('answers every route of the app with index.html, 200 and no-cache', async () => {
    for (const route of Object.values(appRoutes)) {
      const res = await get(route.replace(':id', '7'));
      expect(res.statusCode, route).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    expect((await get('/resetnewpassword?token=abc')).statusCode).toBe(200);
    // A news page's id is a positive integer in its one spelling; anything else is the 404 page.
    for (const path of ['/news/abc', '/news/07', '/news/0', '/news/7/edit/more', '/news/']) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).toBe(INDEX);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/about' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers any other page path with index.html and 404, for the app to show its 404 page', async () => {
    for (const url of ['/nothing-here', '/about/', '/localnews/42', '/assets/missing.js']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('keeps JSON answers under /api/', async () => {
    const res = await get('/api/unknown');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
    expect((await get('/api')).json()).toEqual({ detail: 'Not found.' });
    const wrongMethod = await t.app.inject({ method: 'POST', url: '/about' });
    expect(wrongMethod.statusCode).toBe(405);
  });

  it('caches hashed assets for a year and serves their brotli form when accepted', async () => {
    const plain = await get('/assets/index-Ab12Cd34.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe(SCRIPT);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/javascript/);
    const br = await get('/assets/index-Ab12Cd34.js', { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
  });

  it('serves the other root files of the build, revalidated', async () => {
    const res = await get('/favicon.svg');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(res.headers['cache-control']).toBe('no-cache');
  });
});

describe('the web app, not built', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { WEB_DIST_DIR: path.join(tmpdir(), 'hello-no-such-dist') });
  });
  afterAll(() => t.close());

  it('answers a short page saying so, with the right status', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('not built');
    const other = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    expect(other.statusCode).toBe(404);
    expect(other.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});
