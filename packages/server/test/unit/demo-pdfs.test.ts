import { PDFArray, PDFDocument, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildDemoPdfs, buildLargePdf } from '../../src/pdfs/demo-pdfs.js';

const header = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1');

/** The decoded content streams of one page, as text. */
function pageContent(doc: PDFDocument, index: number): string {
  const contents = doc.getPage(index).node.Contents();
  const parts = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  return parts
    .map((stream) =>
      stream instanceof PDFRawStream ? Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1') : '',
    )
    .join('\n');
}

describe('demo PDFs', () => {
  it('are ids 1, 2, 3 with file names, and each is an A4 PDF with its pages', async () => {
    const pdfs = await buildDemoPdfs();
    expect(pdfs.map(({ id, fileName, title }) => ({ id, fileName, title }))).toEqual([
      { id: 1, fileName: 'welcome-guide.pdf', title: 'Welcome guide' },
      { id: 2, fileName: 'privacy-notice.pdf', title: 'Privacy notice' },
      { id: 3, fileName: 'community-newsletter.pdf', title: 'Community newsletter' },
    ]);
    const pageCounts: number[] = [];
    for (const pdf of pdfs) {
      expect(header(pdf.bytes)).toBe('%PDF-');
      const doc = await PDFDocument.load(pdf.bytes, { updateMetadata: false });
      expect(doc.getTitle()).toBe(pdf.title);
      const { width, height } = doc.getPage(0).getSize();
      expect([Math.round(width), Math.round(height)]).toEqual([595, 842]);
      pageCounts.push(doc.getPageCount());
    }
    expect(pageCounts).toEqual([2, 2, 3]); // id 3: the viewer reads `1 / 3` (docs/web-app.md, "Pages")
    expect(pageCounts[2]).toBeGreaterThanOrEqual(3); // the viewer's Prev/Next need several pages
  });

  it('come out byte for byte the same on every build (stable ETags)', async () => {
    const [first, second] = await Promise.all([buildDemoPdfs(), buildDemoPdfs()]);
    for (const [i, pdf] of first.entries()) {
      expect(Buffer.from(pdf.bytes).equals(Buffer.from(second[i]!.bytes))).toBe(true);
    }
  });

  it('number every page of id 3 in its content ("Page N of 3")', async () => {
    const newsletter = (await buildDemoPdfs()).find((p) => p.id === 3)!;
    const doc = await PDFDocument.load(newsletter.bytes);
    const total = doc.getPageCount();
    for (let n = 1; n <= total; n++) {
      // pdf-lib writes standard-font text as hex WinAnsi codes, which for ASCII are the bytes.
      const label = Buffer.from(`Page ${n} of ${total}`, 'latin1').toString('hex').toUpperCase();
      expect(pageContent(doc, n - 1)).toContain(`<${label}>`);
    }
  });

  it('builds a large PDF of at least the size asked for', async () => {
    const target = 512 * 1024;
    const bytes = await buildLargePdf(target);
    expect(header(bytes)).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThanOrEqual(target);
    expect(bytes.length).toBeLessThan(target * 1.1);
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBeGreaterThan(50);
  });
});
