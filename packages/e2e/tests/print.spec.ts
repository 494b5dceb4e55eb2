import { appRoutes, demoPdfIds, downloadPdfPath, texts } from '@hello/contract';
import { expect, gate, test } from './fixtures';

declare global {
  interface Window {
    __printed?: number;
  }
}

/**
 * Replaces print() in every frame with a counter on the top window, so no dialog ever opens: the
 * init script runs in the page and in each frame, and contentWindow's print is patched as it is
 * handed out, in case a frame's document (a PDF) gets no script of its own.
 */
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const count = () => {
      try {
        window.top!.__printed = (window.top!.__printed ?? 0) + 1;
      } catch {
        window.__printed = (window.__printed ?? 0) + 1;
      }
    };
    if (window === window.top) window.__printed = 0;
    Window.prototype.print = count;
    window.print = count;
    const original = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!;
    Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
      configurable: true,
      get(this: HTMLIFrameElement) {
        const win = original.get!.call(this) as Window | null;
        try {
          if (win) win.print = count;
        } catch {
          // cross-origin: cannot be ours to print
        }
        return win;
      },
    });
  });
});

test('Click to print shows Wait... while PDF 3 loads, then prints it', async ({ page }) => {
  const pdf = gate();
  await page.route(`**${downloadPdfPath(demoPdfIds.print)}`, async (route) => {
    await pdf.opened;
    await route.continue();
  });
  await page.goto(appRoutes.printPdf);
  const button = page.getByRole('button', { name: texts.clickToPrint, exact: true });
  await expect(button).toBeEnabled();
  expect(await page.evaluate(() => window.__printed)).toBe(0);

  await button.click();
  await expect(page.getByText(texts.wait, { exact: true })).toBeVisible();
  expect(await page.evaluate(() => window.__printed)).toBe(0);
  pdf.open();

  await expect.poll(() => page.evaluate(() => window.__printed), { message: 'print() called' }).toBeGreaterThan(0);
  await expect(page.getByRole('button', { name: texts.clickToPrint, exact: true })).toBeVisible();
  await expect(page.getByText(texts.wait, { exact: true })).toHaveCount(0);
});

test('/printcurrentpage prints only its sample block', async ({ page }) => {
  await page.goto(appRoutes.printCurrentPage);
  const main = page.getByRole('main');
  const sample = main.getByRole('article');
  await expect(sample).toBeVisible();
  await expect(sample).toContainText(/sample/i);
  await expect(page.getByText(texts.header, { exact: true })).toBeVisible();

  const printButton = main.getByRole('button', { name: /print/i });
  await printButton.click();
  await expect.poll(() => page.evaluate(() => window.__printed)).toBe(1);

  // The print stylesheet leaves only the sample block: no header, navigation or button.
  await page.emulateMedia({ media: 'print' });
  await expect(sample).toBeVisible();
  await expect(page.getByText(texts.header, { exact: true })).toBeHidden();
  await expect(page.getByRole('navigation')).toBeHidden();
  await expect(printButton).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect(page.getByText(texts.header, { exact: true })).toBeVisible();
});
