import type { CDPSession, Page } from '@playwright/test';
import { appRoutes, downloadPdfPath } from '@hello/contract';
import { LARGE_PDF_BYTES, LARGE_PDF_ID } from '../support/large-pdf';
import { expect, PDF_READY_TIMEOUT, test } from './fixtures';

// A large PDF in the viewer (docs/web-app.md, "PDF viewer"): the benchmark's 5 MiB PDF, added by
// global setup with the operator CLI, opened at /pdfviewer?id=100. Its first page is drawn from a
// few ranges of the file, not the whole file; paging to the end and back leaves the heap where it was.

/** Bytes of the PDF's bodies the browser received, from Chromium's own network events (aborted fetches too). */
function countPdfBytes(cdp: CDPSession, pdfPath: string) {
  const ids = new Set<string>();
  const counted = { bytes: 0, requests: 0 };
  cdp.on('Network.requestWillBeSent', (event) => {
    if (new URL(event.request.url).pathname === pdfPath) {
      ids.add(event.requestId);
      counted.requests += 1;
    }
  });
  cdp.on('Network.dataReceived', (event) => {
    if (ids.has(event.requestId)) counted.bytes += event.dataLength;
  });
  return counted;
}

/** The main thread's JS heap in use, after a full garbage collection. */
async function heapUsed(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'JSHeapUsedSize')!.value;
}

async function goToPage(page: Page, target: number, total: number) {
  const viewer = page.getByRole('region', { name: 'PDF document' });
  const field = viewer.getByRole('textbox', { name: 'Go to page' });
  await field.fill(String(target));
  await field.press('Enter');
  await expect(viewer.getByText(/^\d+ \/ \d+$/)).toHaveText(`${target} / ${total}`);
  await expect(viewer.getByRole('img', { name: `PDF page ${target}` })).toHaveAttribute('data-rendered-scale', /\d/, {
    timeout: PDF_READY_TIMEOUT,
  });
}

test('the 5 MiB PDF shows its first page from ranges, and paging through it keeps the heap flat', async ({ page }) => {
  test.setTimeout(240_000);
  const pdfPath = downloadPdfPath(LARGE_PDF_ID);
  const ranges: (string | undefined)[] = [];
  const statuses: number[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === pdfPath) ranges.push(request.headers()['range']);
  });
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === pdfPath) statuses.push(response.status());
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Performance.enable');
  const received = countPdfBytes(cdp, pdfPath);

  await page.goto(`${appRoutes.pdfViewer}?id=${LARGE_PDF_ID}`);
  const viewer = page.getByRole('region', { name: 'PDF document' });
  const indicator = viewer.getByText(/^\d+ \/ \d+$/);
  await expect(indicator).toHaveText(/^1 \/ \d+$/, { timeout: PDF_READY_TIMEOUT });
  await expect(viewer.getByRole('img', { name: 'PDF page 1' })).toHaveAttribute('data-rendered-scale', '1', {
    timeout: PDF_READY_TIMEOUT,
  });
  const total = Number((await indicator.textContent())!.split('/')[1]);
  expect(total).toBeGreaterThan(100);

  // Page 1 is drawn: what arrived of the file so far is a small part of it, every request asked for
  // a range and got its 206.
  const firstPage = { ...received };
  expect(firstPage.requests).toBeGreaterThan(0);
  expect(firstPage.bytes, `${firstPage.bytes} bytes in ${firstPage.requests} requests`).toBeLessThan(
    LARGE_PDF_BYTES / 8,
  );
  expect(ranges.length).toBe(firstPage.requests);
  for (const range of ranges) expect(range).toMatch(/^bytes=\d+-\d+$/);
  await expect.poll(() => statuses.length).toBe(firstPage.requests);
  expect(new Set(statuses)).toEqual(new Set([206]));

  const atFirstPage = await heapUsed(cdp);

  // Through the whole document in about twenty jumps, to the end and back to page 1.
  const step = Math.ceil(total / 20);
  const there = [...Array.from({ length: 20 }, (_, i) => 1 + (i + 1) * step).filter((n) => n < total), total];
  for (const target of there) await goToPage(page, target, total);
  for (const target of [...there].reverse().slice(1)) await goToPage(page, target, total);
  await goToPage(page, 1, total);

  const afterPaging = await heapUsed(cdp);
  const grewBy = afterPaging - atFirstPage;
  expect(grewBy, `heap ${atFirstPage} → ${afterPaging} bytes`).toBeLessThan(16 * 1024 * 1024);
  // Still by ranges: the jumps fetched the pages' pieces, far less than the file, never all of it.
  expect(new Set(ranges.map((r) => (r ? 'range' : 'none')))).toEqual(new Set(['range']));
  expect(received.bytes).toBeLessThan(LARGE_PDF_BYTES);
});
