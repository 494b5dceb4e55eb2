import { statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { apiPaths, appRoutes } from '@hello/contract';
import { expect, field, loginViaUi, PDF_READY_TIMEOUT, registerViaApi, signIn, submitButton, test } from '../tests/fixtures';
import { repoRoot } from '../support/product-server';

/** Small PNGs for the README, written to docs/screenshots/. */
const dir = path.join(repoRoot, 'docs', 'screenshots');
const MAX_BYTES = 150 * 1024;

async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(dir, `${name}.png`);
  // Let fonts settle and transitions end so the picture is stable.
  await page.evaluate(async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    await document.fonts.ready;
  });
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  expect(statSync(file).size, `${name}.png stays small`).toBeLessThan(MAX_BYTES);
}

test('home', async ({ page }) => {
  await page.goto(appRoutes.home);
  await expect(page.getByRole('heading', { name: /welcome/i })).toBeVisible();
  await shoot(page, 'home');
});

test('login with an error', async ({ page }) => {
  await page.goto(appRoutes.login);
  await loginViaUi(page, 'someone@example.com', 'Wrong-Password-1');
  await expect(page.getByRole('alert')).toBeVisible();
  await shoot(page, 'login-error');
});

// Fixed addresses (each run has a fresh server) keep the pictures the same from run to run.
test('local news', async ({ page, request }) => {
  const user = await registerViaApi(request, 'newsroom@example.com');
  const res = await request.post(apiPaths.localNewsNew, {
    headers: { Authorization: `Token ${user.token}` },
    multipart: {
      title: 'Farmers market moves to the old station square',
      content: 'From next Saturday the market opens at eight, with twice the stalls.',
      files: { name: 'map.txt', mimeType: 'text/plain', buffer: Buffer.from('Station square, north side.\n') },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  await signIn(page, user);
  await page.goto(appRoutes.localNews);
  await expect(page.getByText('Farmers market moves to the old station square')).toBeVisible();
  await shoot(page, 'local-news');
});

test('pdf viewer', async ({ page }) => {
  await page.goto(appRoutes.pdfViewer);
  await expect(page.getByText(/^1 \/ \d+$/)).toBeVisible({ timeout: PDF_READY_TIMEOUT });
  await expect
    .poll(() =>
      page.locator('canvas').first().evaluate((c: HTMLCanvasElement) => {
        const { data } = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
        let n = 0;
        for (let i = 0; i < data.length; i += 4) if (data[i]! < 200) n++;
        return n;
      }),
    )
    .toBeGreaterThan(200);
  await shoot(page, 'pdf-viewer');
});

test('profile', async ({ page, request }) => {
  const user = await registerViaApi(request, 'ada@example.com');
  await signIn(page, user);
  await page.goto(appRoutes.userProfile);
  await field(page, 'first_name').fill('Ada');
  await field(page, 'last_name').fill('Lovelace');
  await field(page, 'user_profile.website').fill('https://example.com/ada');
  const saved = page.waitForResponse((r) => r.url().endsWith(apiPaths.userProfile) && r.request().method() === 'POST');
  await submitButton(page).click();
  expect((await saved).status()).toBe(200);
  await shoot(page, 'profile');
});

test.describe('phone', () => {
  test.use({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });

  test('login on a phone', async ({ page }) => {
    await page.goto(appRoutes.login);
    await expect(field(page, 'email')).toBeVisible();
    await shoot(page, 'login-phone');
  });
});
