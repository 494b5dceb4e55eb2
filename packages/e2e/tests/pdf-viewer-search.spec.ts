import { appRoutes } from '@hello/contract';
import { expect, PDF_READY_TIMEOUT, test } from './fixtures';

// The viewer's search across pages (docs/web-app.md, "PDF viewer"). PDF 3, the newsletter, has
// "volunteers" once on page 1 (in running text) and once on page 3 (the heading "Volunteers wanted").

test('a search finds a word on every page, marks the hits and goes from one to the next', async ({ page }) => {
  await page.goto(appRoutes.pdfViewer);
  const viewer = page.getByRole('region', { name: 'PDF document' });
  const indicator = viewer.getByText(/^\d+ \/ \d+$/);
  await expect(indicator).toHaveText('1 / 3', { timeout: PDF_READY_TIMEOUT });

  const search = viewer.getByRole('search', { name: 'Search the document' });
  const box = search.getByRole('searchbox', { name: 'Search' });
  // Said politely (aria-live); the viewer's one role=status says the page.
  const status = search.locator('[aria-live="polite"]');
  await expect(status).toHaveText('');

  await box.fill('VOLUNTEERS');
  await box.press('Enter');
  // The first hit from the page shown is on that page: it stays, and the hit is marked there.
  await expect(status).toHaveText('Hit 1 of 2');
  await expect(indicator).toHaveText('1 / 3');
  const current = viewer.locator('.textLayer mark.highlight.selected');
  await expect(current).toHaveText(/^volunteers$/i);
  await expect(current).toBeVisible();

  // Enter again: the next hit, on page 3, marked in that page's text layer.
  await box.press('Enter');
  await expect(status).toHaveText('Hit 2 of 2');
  await expect(indicator).toHaveText('3 / 3');
  await expect(current).toHaveText('Volunteers');
  await expect(current).toBeInViewport();
  // The mark lies over the word of the drawing: inside the heading's span, the same line, a visible box.
  const geometry = await current.evaluate((mark) => {
    const span = mark.parentElement!;
    const a = mark.getBoundingClientRect();
    const b = span.getBoundingClientRect();
    return {
      inSpan: span.textContent,
      width: a.width,
      sameLine: Math.abs(a.top - b.top) < 4,
      colour: getComputedStyle(mark).backgroundColor,
    };
  });
  expect(geometry.inSpan).toMatch(/^Volunteers wanted/);
  expect(geometry.width).toBeGreaterThan(20);
  expect(geometry.sameLine).toBe(true);
  expect(geometry.colour).not.toBe('rgba(0, 0, 0, 0)');
  await expect(viewer.locator('.textLayer mark.highlight')).toHaveCount(1);

  // The ↓ control wraps to the first hit; ↑ goes back.
  await search.getByRole('button', { name: 'Next match' }).click();
  await expect(status).toHaveText('Hit 1 of 2');
  await expect(indicator).toHaveText('1 / 3');
  await search.getByRole('button', { name: 'Previous match' }).click();
  await expect(status).toHaveText('Hit 2 of 2');
  await expect(indicator).toHaveText('3 / 3');

  // A word that is nowhere: said so, nothing marked, the page stays.
  await box.fill('zeppelin');
  await box.press('Enter');
  await expect(status).toHaveText('No matches');
  await expect(indicator).toHaveText('3 / 3');
  await expect(viewer.locator('.textLayer mark')).toHaveCount(0);
});
