import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';

// Headers do not depend on the database: SQLite alone covers them.
describe('security headers', () => {
  let t: TestApp;
  let withCors: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    withCors = await buildTestApp('sqlite', { CORS_ORIGINS: 'https://partner.example' });
  });
  afterAll(async () => {
    await t.close();
    await withCors.close();
  });

  it('sends pages a strict CSP that still lets pdf.js and the print frame work', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/pdfviewer' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("frame-src 'self' blob:");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("object-src 'none'");
  });

  it('sends nosniff, frame options and no-referrer on every answer', async () => {
    for (const url of ['/api/nothing', '/resetnewpassword?token=abc', '/download_pdf_by_id/1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe(url.startsWith('/api/') ? 'DENY' : 'SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });

  it('sends the API a CSP that allows nothing, and no caching of its answers', async () => {
    for (const url of ['/api/nothing', '/api/v1/localnews/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['cache-control']).toBe('no-store');
      // Page-only headers stay on pages.
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends HSTS only over HTTPS (behind a trusted proxy)', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/api/nothing' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const proxied = await buildTestApp('sqlite', { TRUST_PROXY: '1' });
    try {
      const res = await proxied.app.inject({
        method: 'GET',
        url: '/api/nothing',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    } finally {
      await proxied.close();
    }
  });

  it('keeps CORS off unless origins are configured, then exposes Content-Disposition, Link and Retry-After', async () => {
    const off = await t.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { origin: 'https://partner.example' },
    });
    expect(off.headers['access-control-allow-origin']).toBeUndefined();
    const on = await withCors.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { origin: 'https://partner.example' },
    });
    expect(on.headers['access-control-allow-origin']).toBe('https://partner.example');
    expect(String(on.headers['access-control-expose-headers']).split(/\s*,\s*/)).toEqual([
      'Content-Disposition',
      'Link',
      'Retry-After',
    ]);
    const other = await withCors.app.inject({
      method: 'GET',
      url: '/api/nothing',
      headers: { origin: 'https://evil.example' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
