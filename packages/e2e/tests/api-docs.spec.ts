import { apiPaths } from '@hello/contract';
import { expect, test } from './fixtures';

/** `GET /api/docs` (docs/api.md): the reference page of every call of /api/openapi.json, under the product's CSP. */
const API_DOCS = '/api/docs';

interface Violation {
  directive: string;
  blockedURI: string;
}

test('/api/docs renders the reference from the product alone, with no CSP violation', async ({ page, baseURL }) => {
  // Every violation of the page's Content-Security-Policy, as the browser reports it to the page
  // (recorded from the first script of each document on, before the page's own scripts run)…
  await page.addInitScript(() => {
    const seen: { directive: string; blockedURI: string }[] = [];
    (window as Window & { __cspViolations?: typeof seen }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push({ directive: event.effectiveDirective, blockedURI: event.blockedURI });
    });
  });
  // …and as it reports them on the console.
  const cspConsole: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content[ -]Security[ -]Policy/i.test(msg.text())) cspConsole.push(msg.text());
  });
  const origins = new Set<string>();
  page.on('request', (req) => {
    if (!req.url().startsWith('data:')) origins.add(new URL(req.url()).origin);
  });

  const answer = await page.goto(API_DOCS);
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
  // The product's CSP is in force on the page (a page without one could not prove anything here).
  expect((await answer?.allHeaders())?.['content-security-policy']).toContain("script-src 'self'");

  // The operations are drawn from the document (by the page's scripts, with what they fetched): the
  // login call and the news list among them, each a link of its own.
  for (const path of [apiPaths.token, apiPaths.tokenRefresh, apiPaths.localNews]) {
    await expect(page.getByRole('link', { name: path, exact: true })).toBeVisible();
  }

  const violations = await page.evaluate(
    () => (window as Window & { __cspViolations?: Violation[] }).__cspViolations ?? null,
  );
  expect(violations, 'the violation recorder ran in the page').not.toBeNull();
  expect(violations, 'CSP violations reported to the page').toEqual([]);
  expect(cspConsole, 'CSP errors on the console').toEqual([]);
  // Served by the product itself: nothing was fetched from another host.
  expect([...origins]).toEqual([new URL(baseURL!).origin]);
});
