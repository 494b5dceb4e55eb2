import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { appRoutes } from '@hello/contract';
import { routes, type RouteCase } from '../support/routes';
import { expect, field, registerViaApi, signIn, test } from './fixtures';

// The whole app for everyone (docs/web-app.md, "Accessibility"): every route of the table
// (support/routes.ts, so a route added later is covered too), signed out and signed in, at
// 1280×800 and on a 390×844 phone: no axe violation of WCAG 2.0/2.1/2.2 A and AA or of axe's best
// practices, and on the phone every control a finger aims at is at least 44×44 CSS pixels.

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const MIN_TARGET = 44;

/** axe's violations, one line each with the elements, so a failure says what to fix. */
async function axeViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}

/**
 * Visible buttons, links, inputs and selects smaller than 44×44 CSS pixels. Exempt, as WCAG 2.5.5
 * and 2.5.8 allow: links inside a paragraph of running text. A checkbox is aimed at through its
 * label, so the label's box counts.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea')) {
      if ((el as HTMLInputElement).type === 'hidden' || !el.checkVisibility({ visibilityProperty: true })) continue;
      if (el.matches('a') && el.closest('p')) continue;
      const target =
        el.matches('input[type=checkbox], input[type=radio]') && (el as HTMLInputElement).labels?.[0]
          ? (el as HTMLInputElement).labels![0]!
          : el;
      const box = target.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.width < min || box.height < min) {
        const name = (el.getAttribute('aria-label') || el.textContent || (el as HTMLInputElement).name || '').trim();
        small.push(
          `<${el.tagName.toLowerCase()}> "${name.slice(0, 30)}" ${box.width.toFixed(0)}×${box.height.toFixed(0)}`,
        );
      }
    }
    return small;
  }, MIN_TARGET);
}

/**
 * Waits until the route shows what it shows. Signed out, a members' page either sends to the login
 * form or shows its form until it is sent: either is checked as it stands.
 */
async function waitUntilShown(page: Page, route: RouteCase, signedIn: boolean): Promise<void> {
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  // 'load', not 'networkidle': once, on /printpdf, every request had long finished and the page was
  // still never counted idle (20 s). What each page shows when it is ready is route.check's to say.
  await page.waitForLoadState('load');
  if (!signedIn && new URL(page.url()).pathname === appRoutes.login) {
    await expect(field(page, 'email')).toBeVisible();
  } else if (signedIn || !route.signedIn) {
    await route.check(page);
  }
  // Fonts and late layout (pdf.js's text layer) settle before measuring.
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

for (const route of routes) {
  test(`${route.path}: no axe violations and 44 px targets on a phone, signed out and in`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const user = await registerViaApi(request);
    for (const signedIn of [false, true]) {
      if (signedIn) await signIn(page, user);
      const path = route.at ? await route.at(request, user) : route.path;
      for (const viewport of VIEWPORTS) {
        const where = `${path} ${signedIn ? 'signed in' : 'signed out'} at ${viewport.width}×${viewport.height}`;
        await page.setViewportSize(viewport);
        await page.goto(path);
        await waitUntilShown(page, route, signedIn);
        // Soft: one run lists every state's problems, not only the first.
        expect.soft(await axeViolations(page), `axe on ${where}`).toEqual([]);
        if (viewport.width < 400) {
          expect.soft(await smallTargets(page), `targets under 44 px on ${where}`).toEqual([]);
          // The site's menu is folded away on a phone: its links are targets once it is open.
          const menu = page.getByRole('button', { name: 'Menu' });
          await menu.click();
          await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link').first()).toBeVisible();
          expect.soft(await smallTargets(page), `targets under 44 px on ${where}, menu open`).toEqual([]);
          await menu.click();
        }
      }
    }
  });
}

test('after following a link, focus is on the new page’s h1; not on the first load', async ({ page }) => {
  await page.goto(appRoutes.home);
  await expect(page.getByRole('heading', { level: 1, name: /welcome/i })).toBeVisible();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About', exact: true }).click();
  const heading = page.getByRole('main').getByRole('heading', { level: 1 });
  await expect(heading).toBeFocused();
  expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');

  // A lazily loaded page: its heading comes with its chunk, and gets focus then.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Viewer', exact: true }).click();
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'PDF viewer' })).toBeFocused();
});
