import { readFile } from 'node:fs/promises';
import { appRoutes, demoPdfIds, downloadPdfPath } from '@hello/contract';
import { expect, test } from './fixtures';

/** The file name of a Content-Disposition header: filename*=UTF-8''… wins over filename="…". */
function filenameOf(header: string): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) return decodeURIComponent(extended[1]!.trim());
  const plain = /filename\s*=\s*(?:"((?:\\.|[^"\\])*)"|([^;]+))/i.exec(header);
  if (!plain) throw new Error(`no filename in Content-Disposition: ${header}`);
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2]!.trim();
}

test('the download button saves PDF 1 under the server-given name, as a PDF', async ({ page, request }, testInfo) => {
  const head = await request.get(downloadPdfPath(demoPdfIds.download));
  expect(head.status()).toBe(200);
  const disposition = head.headers()['content-disposition'];
  expect(disposition, 'Content-Disposition of /download_pdf_by_id/1').toBeTruthy();
  const serverName = filenameOf(disposition!);

  await page.goto(appRoutes.downloadPdf);
  const downloading = page.waitForEvent('download');
  await page.getByRole('main').getByRole('button').click();
  const download = await downloading;

  expect(download.suggestedFilename()).toBe(serverName);
  const saved = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(saved);
  const bytes = await readFile(saved);
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(bytes.equals(await head.body())).toBe(true);
});
