import type { Locator, Page } from '@playwright/test';
import { appRoutes, demoPdfIds, downloadPdfPath } from '@hello/contract';
import { expect, PDF_READY_TIMEOUT, test } from './fixtures';

// The viewer's reading controls (docs/web-app.md, "PDF viewer"): text layer, page number field,
// keys, zoom and fit width, Download and Print. PDF 3 is the newsletter: three A4 pages.

/** A4 at scale 1, in CSS pixels (595.28 pt). */
const A4_WIDTH = 595.28;

interface Viewer {
  viewer: Locator;
  canvas: Locator;
  textLayer: Locator;
  indicator: Locator;
  total: number;
}

/**
 * Types a page the document does not have, and checks the error is shown right under the field's row
 * (not below the rest of the toolbar), starting where the row starts.
 */
async function refusedPageShowsUnderField(viewer: Locator, total: number) {
  const field = viewer.getByRole('textbox', { name: 'Go to page' });
  await field.fill(String(total + 1));
  await field.press('Enter');
  const alert = viewer.getByRole('alert');
  await expect(alert).toHaveText(`Enter a page number from 1 to ${total}.`);
  const box = async (locator: Locator) => (await locator.boundingBox())!;
  const fieldBox = await box(field);
  const alertBox = await box(alert);
  const prevBox = await box(viewer.getByRole('button', { name: 'Prev', exact: true }));
  expect(alertBox.y - (fieldBox.y + fieldBox.height), 'between the field and its error').toBeLessThan(16);
  expect(alertBox.y).toBeGreaterThan(fieldBox.y + fieldBox.height - 1);
  expect(alertBox.x).toBeCloseTo(prevBox.x, 0);
}

/** Opens /pdfviewer and waits until page 1 is drawn. */
async function openViewer(page: Page): Promise<Viewer> {
  await page.goto(appRoutes.pdfViewer);
  const indicator = page.getByText(/^\d+ \/ \d+$/);
  await expect(indicator).toHaveText(/^1 \/ \d+$/, { timeout: PDF_READY_TIMEOUT });
  const viewer = page.getByRole('region', { name: 'PDF document' });
  const canvas = viewer.getByRole('img', { name: /^PDF page \d+$/ });
  await expect(canvas).toHaveAttribute('data-rendered-scale', /\d/, { timeout: PDF_READY_TIMEOUT });
  const total = Number((await indicator.textContent())!.split('/')[1]);
  return { viewer, canvas, textLayer: viewer.locator('.textLayer'), indicator, total };
}

/** The canvas's backing store and CSS size, and the text layer's box. */
function geometry(canvas: Locator) {
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const box = c.getBoundingClientRect();
    const layer = c.parentElement!.querySelector('.textLayer')!.getBoundingClientRect();
    return {
      width: c.width,
      cssWidth: box.width,
      rendered: c.dataset.renderedScale,
      layerWidth: layer.width,
      layerHeight: layer.height,
      cssHeight: box.height,
      ratio: window.devicePixelRatio,
    };
  });
}

test('the text of page 1 can be selected, read from the selection, and found', async ({ page }) => {
  const { textLayer } = await openViewer(page);
  const heading = textLayer.locator('span', { hasText: 'A busy autumn in our neighbourhood' });
  await expect(heading).toHaveCount(1, { timeout: PDF_READY_TIMEOUT });

  // Drag across the heading as a reader would: the transparent text lies over the drawing.
  const box = (await heading.boundingBox())!;
  await page.mouse.move(box.x + 1, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 4 });
  await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  const selected = await page.evaluate(() => window.getSelection()?.toString() ?? '');
  expect(selected).toContain('busy autumn in our neighbourhoo');

  // The browser's find reaches the page's text, inside the text layer.
  const found = await page.evaluate(() => {
    window.getSelection()?.removeAllRanges();
    // window.find: Chromium's find-in-page for scripts.
    const hit = (window as unknown as { find: (text: string) => boolean }).find('the community centre has a new roof');
    const node = window.getSelection()?.anchorNode;
    return { hit, inLayer: !!node?.parentElement?.closest('.textLayer') };
  });
  expect(found).toEqual({ hit: true, inLayer: true });
});

test('a typed page number goes to that page; numbers outside the document are refused', async ({ page }) => {
  const { viewer, canvas, indicator, total } = await openViewer(page);
  const field = viewer.getByRole('textbox', { name: 'Go to page' });
  await expect(field).toHaveValue('1');

  await field.fill('3');
  await field.press('Enter');
  await expect(indicator).toHaveText(`3 / ${total}`);
  await expect(viewer.getByRole('status')).toHaveText(`Page 3 of ${total}`);
  await expect(canvas).toHaveAccessibleName('PDF page 3');
  await expect(viewer.locator('.textLayer')).toContainText('Volunteers wanted');

  for (const bad of [String(total + 1), '0', 'abc']) {
    await field.fill(bad);
    await field.press('Enter');
    await expect(viewer.getByRole('alert')).toHaveText(`Enter a page number from 1 to ${total}.`);
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(indicator).toHaveText(`3 / ${total}`);
  }
  await field.fill('2');
  await field.press('Enter');
  await expect(indicator).toHaveText(`2 / ${total}`);
  await expect(viewer.getByRole('alert')).toHaveCount(0);
  await refusedPageShowsUnderField(viewer, total);
});

test('← → PageUp PageDown Home End page through the document when the viewer has focus', async ({ page }) => {
  const { viewer, indicator, total } = await openViewer(page);
  const live = viewer.getByRole('status');
  await expect(viewer).toHaveAttribute('tabindex', '0');
  await viewer.focus();
  await expect(viewer).toBeFocused();

  await page.keyboard.press('ArrowRight');
  await expect(indicator).toHaveText(`2 / ${total}`);
  await expect(live).toHaveText(`Page 2 of ${total}`);
  await expect(live).toHaveAttribute('role', 'status');
  await page.keyboard.press('PageDown');
  await expect(indicator).toHaveText(`3 / ${total}`);
  await page.keyboard.press('End');
  await expect(indicator).toHaveText(`${total} / ${total}`);
  await page.keyboard.press('ArrowRight');
  await expect(indicator).toHaveText(`${total} / ${total}`);
  await page.keyboard.press('Home');
  await expect(indicator).toHaveText(`1 / ${total}`);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await expect(indicator).toHaveText(`3 / ${total}`);
  await page.keyboard.press('PageUp');
  await expect(indicator).toHaveText(`2 / ${total}`);
  await page.keyboard.press('ArrowLeft');
  await expect(indicator).toHaveText(`1 / ${total}`);
  await expect(live).toHaveText(`Page 1 of ${total}`);

  // Clicking on the page focuses the viewer, so the keys work from there too.
  await viewer.locator('.textLayer').click({ position: { x: 20, y: 200 } });
  await page.keyboard.press('ArrowRight');
  await expect(indicator).toHaveText(`2 / ${total}`);
});

test('a quick zoom sequence ends drawn at the last zoom asked for, crisp, text layer on top', async ({ page }) => {
  const { viewer, canvas } = await openViewer(page);
  const level = viewer.locator('.pdf-zoom-level');
  await expect(level).toHaveText('100%');
  await expect(viewer.getByRole('button', { name: 'Actual size' })).toHaveAttribute('aria-pressed', 'true');

  const zoomIn = viewer.getByRole('button', { name: 'Zoom in' });
  const zoomOut = viewer.getByRole('button', { name: 'Zoom out' });
  // 1 → 1.1 → 1.25 → 1.5 → 1.75 → 1.5, without waiting for any drawing.
  for (const button of [zoomIn, zoomIn, zoomIn, zoomIn, zoomOut]) await button.click();
  await expect(level).toHaveText('150%');
  await expect(canvas).toHaveAttribute('data-rendered-scale', '1.5');
  // Nothing drawn later (an earlier zoom finishing late) replaces it.
  await page.waitForTimeout(1_000);
  const zoomed = await geometry(canvas);
  expect(zoomed.rendered).toBe('1.5');
  expect(zoomed.cssWidth).toBe(Math.floor(A4_WIDTH * 1.5));
  expect(zoomed.width).toBe(Math.floor(A4_WIDTH * 1.5 * zoomed.ratio));
  expect(Math.abs(zoomed.layerWidth - zoomed.cssWidth)).toBeLessThanOrEqual(1);
  expect(Math.abs(zoomed.layerHeight - zoomed.cssHeight)).toBeLessThanOrEqual(1);

  // Fit width: as wide as the box's content; Actual size: back to scale 1.
  await viewer.getByRole('button', { name: 'Fit width' }).click();
  await expect(viewer.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');
  const wrap = viewer.locator('.pdf-canvas-wrap');
  const content = await wrap.evaluate((el) => {
    const style = getComputedStyle(el);
    return el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  });
  await expect
    .poll(async () => {
      const g = await geometry(canvas);
      return g.rendered !== undefined && content - g.cssWidth;
    })
    .toBeLessThanOrEqual(2);
  expect((await geometry(canvas)).cssWidth).toBeLessThanOrEqual(content);

  await viewer.getByRole('button', { name: 'Actual size' }).click();
  await expect(canvas).toHaveAttribute('data-rendered-scale', '1');
  await expect(level).toHaveText('100%');
  expect((await geometry(canvas)).cssWidth).toBe(Math.floor(A4_WIDTH));
});

test('Download and Print in the toolbar save and print PDF 3', async ({ page, request }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __printed: number };
    w.__printed = 0;
    const count = () => {
      (window.top as unknown as { __printed: number }).__printed++;
    };
    const original = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'contentWindow')!;
    Object.defineProperty(HTMLIFrameElement.prototype, 'contentWindow', {
      configurable: true,
      get(this: HTMLIFrameElement) {
        const win = original.get!.call(this) as Window | null;
        if (win) win.print = count;
        return win;
      },
    });
  });
  const { viewer } = await openViewer(page);
  const head = await request.get(downloadPdfPath(demoPdfIds.viewer));
  const name = /filename="([^"]+)"/.exec(head.headers()['content-disposition'] ?? '')?.[1];
  expect(name).toBeTruthy();

  const downloading = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download', exact: true }).click();
  expect((await downloading).suggestedFilename()).toBe(name);

  await viewer.getByRole('button', { name: 'Print', exact: true }).click();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { __printed: number }).__printed))
    .toBeGreaterThan(0);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });

  test('the viewer starts at fit width: nothing scrolls sideways, crisp, buttons at least 44 px tall', async ({
    page,
  }) => {
    const { viewer, canvas } = await openViewer(page);
    await expect(viewer.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'true');
    await expect(viewer.getByRole('button', { name: 'Actual size' })).toHaveAttribute('aria-pressed', 'false');
    const level = Number((await viewer.locator('.pdf-zoom-level').textContent())!.replace('%', ''));
    expect(level).toBeLessThan(100);

    const overflow = await page.evaluate(() => {
      const boxes = ['.pdf-viewer', '.pdf-canvas-wrap'].map((s) => document.querySelector(s)!);
      return [document.documentElement, document.body, ...boxes].map((el) => el.scrollWidth - el.clientWidth);
    });
    expect(overflow, 'scrollWidth − clientWidth of document, body, viewer, page box').toEqual([0, 0, 0, 0]);

    const g = await geometry(canvas);
    expect(g.ratio).toBe(3);
    expect(g.width / g.cssWidth).toBeCloseTo(3, 1);

    for (const control of await viewer.locator('button, input').all()) {
      const height = (await control.boundingBox())!.height;
      expect(height, await control.evaluate((el) => el.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(44);
    }

    // Zooming in on a phone scrolls inside the page's box, never the page itself.
    await viewer.getByRole('button', { name: 'Actual size' }).click();
    await expect(canvas).toHaveAttribute('data-rendered-scale', '1');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
      0,
    );
  });

  test('a refused page number is shown under the field, above the zoom row', async ({ page }) => {
    const { viewer, total } = await openViewer(page);
    await refusedPageShowsUnderField(viewer, total);
    const alertBox = (await viewer.getByRole('alert').boundingBox())!;
    const zoomOut = (await viewer.getByRole('button', { name: 'Zoom out' }).boundingBox())!;
    expect(zoomOut.y).toBeGreaterThan(alertBox.y + alertBox.height - 1);
  });
});
