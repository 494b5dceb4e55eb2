import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';

/** The `src`/`href` of the page's scripts and stylesheets. */
const assetsOf = (html: string) => ({
  scripts: [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!),
  styles: [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!),
});

// The page does not depend on the database: SQLite alone covers it.
describe('GET /api/docs: the API reference page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('answers 200 HTML under a CSP of its own: scripts, styles and fetches from our origin only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="swagger-ui">');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("style-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-|https?:|\*/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('has no inline script or style: everything it loads is ours and answers 200', async () => {
    const page = (await t.app.inject({ method: 'GET', url: '/api/docs' })).body;
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style\b|\sstyle="/);
    const { scripts, styles } = assetsOf(page);
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    expect(styles.length).toBeGreaterThanOrEqual(1);
    for (const [urls, type] of [
      [scripts, /^application\/javascript/],
      [styles, /^text\/css/],
    ] as const) {
      for (const url of urls) {
        expect(url, 'a path of our own origin').toMatch(/^\/api\/docs\//);
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toMatch(type);
        expect(res.rawPayload.length, url).toBeGreaterThan(0);
      }
    }
  });

  it('renders the document of /api/openapi.json, and calls no third-party host', async () => {
    const init = await t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    expect(init.body).toContain("url: resolveUrl('./json')");
    expect(init.body).toContain('validatorUrl: null');
    const [shown, served] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/docs/json' }),
      t.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    ]);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toEqual(served.json());
    // Its own routes stay out of the document.
    expect(Object.keys(served.json<{ paths: object }>().paths).filter((p) => p.startsWith('/api/docs'))).toEqual([]);
  });

  it('keeps the API its CSP that allows nothing', async () => {
    for (const url of ['/api/docsx', '/api/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
    }
  });
});
