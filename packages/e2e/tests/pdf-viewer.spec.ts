import type { Page } from '@playwright/test';
import { appRoutes, downloadPdfPath, texts } from '@hello/contract';
import { expect, gate, PDF_READY_TIMEOUT, test } from './fixtures';

/** Pixels of the viewer's canvas that are drawn and not white. */
function inkedPixels(page: Page): Promise<number> {
  return page
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0 || canvas.height === 0) return 0;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
        if (a > 0 && (r < 200 || g < 200 || b < 200)) count++;
      }
      return count;
    });
}

/** A cheap fingerprint of what the canvas shows, to tell pages apart. */
function canvasPrint(page: Page): Promise<string> {
  return page
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => canvas.toDataURL());
}

test('the viewer draws page 1 of PDF 3 and pages with Prev / Next', async ({ page }) => {
  // Hold the PDF so the loading state can be seen.
  const pdf = gate();
  await page.route(`**${downloadPdfPath(3)}`, async (route) => {
    await pdf.opened;
    await route.continue();
  });
  await page.goto(appRoutes.pdfViewer);
  await expect(page.getByText(texts.loading, { exact: true })).toBeVisible();
  pdf.open();

  const indicator = page.getByText(/^\d+ \/ \d+$/);
  // docs/web-app.md, "Pages": the indicator reads `1 / 3` (the demo PDF 3 has three pages).
  await expect(indicator).toHaveText('1 / 3', { timeout: PDF_READY_TIMEOUT });
  await expect(page.getByText(texts.loading, { exact: true })).toHaveCount(0);
  const total = 3;

  const prev = page.getByRole('button', { name: texts.prev, exact: true });
  const next = page.getByRole('button', { name: texts.next, exact: true });
  await expect(prev).toBeDisabled();
  await expect(next).toBeEnabled();
  await expect.poll(() => inkedPixels(page), { message: 'page 1 drawn on the canvas' }).toBeGreaterThan(200);
  const page1 = await canvasPrint(page);

  await next.click();
  await expect(indicator).toHaveText(`2 / ${total}`);
  await expect(prev).toBeEnabled();
  await expect(next).toBeEnabled();
  // Each page shows its own number, so the drawing changes.
  await expect.poll(() => canvasPrint(page), { message: 'page 2 drawn' }).not.toBe(page1);
  await expect.poll(() => inkedPixels(page)).toBeGreaterThan(200);

  for (let n = 3; n <= total; n++) {
    await next.click();
    await expect(indicator).toHaveText(`${n} / ${total}`);
  }
  await expect(next).toBeDisabled();
  await expect(prev).toBeEnabled();

  await prev.click();
  await expect(indicator).toHaveText(`${total - 1} / ${total}`);
  await expect(next).toBeEnabled();
});

test('the canvas is sharp on a high-density screen', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, deviceScaleFactor: 2 });
  const page = await context.newPage();
  await page.goto(appRoutes.pdfViewer);
  await expect(page.getByText(/^1 \/ \d+$/)).toBeVisible({ timeout: PDF_READY_TIMEOUT });
  await expect.poll(() => inkedPixels(page)).toBeGreaterThan(200);
  const { width, cssWidth } = await page
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => ({
      width: canvas.width,
      cssWidth: canvas.getBoundingClientRect().width,
    }));
  // Backing store at device pixels: twice the CSS size.
  expect(width / cssWidth).toBeCloseTo(2, 1);
  await context.close();
});
