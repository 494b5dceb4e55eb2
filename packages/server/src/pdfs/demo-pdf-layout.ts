// Drawing helpers for the demo PDFs: an A4 page with a coloured header band, its number big and
// clear, and a writer that flows headings, paragraphs, lists, boxes and tables down the page.
// Standard fonts only (no files to ship); text must stay within WinAnsi (no arrows or emoji).
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage, type RGB } from 'pdf-lib';

export const A4 = { width: 595.28, height: 841.89 } as const;
const MARGIN = 56;
const BAND_HEIGHT = 92;
const FOOTER_Y = 36;
const TEXT = rgb(0.13, 0.15, 0.18);
const MUTED = rgb(0.4, 0.43, 0.48);
const WHITE = rgb(1, 1, 1);

/** A fixed date, so the same code always produces the same bytes (and the same ETag). */
const FIXED_DATE = new Date('2026-01-05T09:00:00Z');

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
}

export interface Theme {
  accent: RGB;
  /** A pale tint of the accent for boxes and table stripes. */
  tint: RGB;
}

export async function newDocument(title: string, subject: string): Promise<{ doc: PDFDocument; fonts: Fonts }> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setSubject(subject);
  doc.setAuthor('Hello all!');
  doc.setCreator('Hello all! demo documents');
  doc.setProducer('pdf-lib');
  doc.setLanguage('en-GB');
  doc.setCreationDate(FIXED_DATE);
  doc.setModificationDate(FIXED_DATE);
  const [regular, bold, italic] = await Promise.all(
    [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique].map((f) => doc.embedFont(f)),
  );
  return { doc, fonts: { regular: regular!, bold: bold!, italic: italic! } };
}

/** Splits text into lines no wider than `width` at `size`. */
export function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Draws the header band (document title, page number) and the footer on every page. Called once
 * all pages exist, so each can say "Page 2 of 4".
 */
export function drawChrome(doc: PDFDocument, fonts: Fonts, theme: Theme, title: string, kicker: string): void {
  const pages = doc.getPages();
  pages.forEach((page, index) => {
    const { width, height } = page.getSize();
    const label = `Page ${index + 1} of ${pages.length}`;
    page.drawRectangle({ x: 0, y: height - BAND_HEIGHT, width, height: BAND_HEIGHT, color: theme.accent });
    page.drawRectangle({ x: 0, y: height - BAND_HEIGHT - 5, width, height: 5, color: theme.tint });
    page.drawText('HELLO ALL!', { x: MARGIN, y: height - 32, size: 9, font: fonts.bold, color: theme.tint });
    page.drawText(title, { x: MARGIN, y: height - 62, size: 24, font: fonts.bold, color: WHITE });
    const labelSize = 22;
    const labelWidth = fonts.bold.widthOfTextAtSize(label, labelSize);
    page.drawText(label, {
      x: width - MARGIN - labelWidth,
      y: height - 60,
      size: labelSize,
      font: fonts.bold,
      color: WHITE,
    });
    const kickerWidth = fonts.regular.widthOfTextAtSize(kicker, 9);
    page.drawText(kicker, {
      x: width - MARGIN - kickerWidth,
      y: height - 32,
      size: 9,
      font: fonts.regular,
      color: theme.tint,
    });

    page.drawLine({
      start: { x: MARGIN, y: FOOTER_Y + 14 },
      end: { x: width - MARGIN, y: FOOTER_Y + 14 },
      thickness: 0.5,
      color: MUTED,
    });
    page.drawText(`Hello all!  |  ${title}`, { x: MARGIN, y: FOOTER_Y, size: 9, font: fonts.regular, color: MUTED });
    const footWidth = fonts.bold.widthOfTextAtSize(label, 10);
    page.drawText(label, { x: width - MARGIN - footWidth, y: FOOTER_Y, size: 10, font: fonts.bold, color: TEXT });
  });
}

interface TextOptions {
  size?: number;
  font?: PDFFont;
  color?: RGB;
  indent?: number;
  after?: number;
}

/** Writes downwards from below the header band; throws if content would run into the footer. */
export class PageWriter {
  readonly page: PDFPage;
  private y: number;
  private readonly left = MARGIN;
  private readonly width = A4.width - 2 * MARGIN;

  constructor(
    doc: PDFDocument,
    private readonly fonts: Fonts,
    private readonly theme: Theme,
  ) {
    this.page = doc.addPage([A4.width, A4.height]);
    this.y = A4.height - BAND_HEIGHT - 44;
  }

  private take(height: number): number {
    const top = this.y;
    this.y -= height;
    if (this.y < FOOTER_Y + 34) throw new Error(`page content overflows by ${FOOTER_Y + 34 - this.y} pt`);
    return top;
  }

  space(points: number): this {
    this.take(points);
    return this;
  }

  heading(text: string, size = 17): this {
    const top = this.take(size + 8);
    this.page.drawText(text, { x: this.left, y: top - size, size, font: this.fonts.bold, color: this.theme.accent });
    return this;
  }

  paragraph(
    text: string,
    { size = 11, font = this.fonts.regular, color = TEXT, indent = 0, after = 9 }: TextOptions = {},
  ): this {
    const leading = size * 1.45;
    for (const line of wrap(text, font, size, this.width - indent)) {
      const top = this.take(leading);
      this.page.drawText(line, { x: this.left + indent, y: top - size, size, font, color });
    }
    return this.space(after);
  }

  /** A bulleted (or, with `numbered`, numbered) list with hanging indents. */
  list(items: string[], { numbered = false, size = 11 } = {}): this {
    items.forEach((item, i) => {
      const marker = numbered ? `${i + 1}.` : '\u2022';
      const markerTop = this.y;
      this.paragraph(item, { size, indent: 18, after: 4 });
      this.page.drawText(marker, {
        x: this.left + 2,
        y: markerTop - size,
        size,
        font: this.fonts.bold,
        color: this.theme.accent,
      });
    });
    return this.space(6);
  }

  /** A tinted box with an accent bar on the left: a tip, a quote, a summary. */
  box(title: string, lines: string[], { font = this.fonts.regular, size = 10.5 } = {}): this {
    const inner = this.width - 36;
    const wrapped = lines.map((l) => wrap(l, font, size, inner));
    const leading = size * 1.45;
    const height = 22 + (title ? 20 : 0) + wrapped.reduce((n, w) => n + w.length * leading + 4, 0);
    const top = this.take(height);
    this.page.drawRectangle({ x: this.left, y: top - height, width: this.width, height, color: this.theme.tint });
    this.page.drawRectangle({ x: this.left, y: top - height, width: 5, height, color: this.theme.accent });
    let y = top - 14;
    if (title) {
      this.page.drawText(title, {
        x: this.left + 20,
        y: y - 12,
        size: 12.5,
        font: this.fonts.bold,
        color: this.theme.accent,
      });
      y -= 20;
    }
    for (const block of wrapped) {
      for (const line of block) {
        this.page.drawText(line, { x: this.left + 20, y: y - size - 2, size, font, color: TEXT });
        y -= leading;
      }
      y -= 4;
    }
    return this.space(14);
  }

  /**
   * A drawn picture of the neighbourhood (sky, sun, hills, houses, trees) with a caption: the kind
   * of photo a real newsletter would carry, without shipping an image file. `variant` varies it.
   */
  illustration(caption: string, height: number, variant = 0): this {
    const top = this.take(height + 22);
    const x0 = this.left;
    const y0 = top - height;
    const { accent, tint } = this.theme;
    const page = this.page;
    page.drawRectangle({ x: x0, y: y0, width: this.width, height, color: tint });
    page.drawCircle({
      x: x0 + this.width * (0.75 - 0.5 * (variant % 2)),
      y: y0 + height * 0.72,
      size: height * 0.12,
      color: rgb(1, 0.84, 0.4),
    });
    // Hills: quadratic curves from the ground line (pdf-lib's SVG y axis points down).
    const w = this.width;
    page.drawSvgPath(`M 0 0 Q ${w * 0.3} ${-height * 0.9} ${w * 0.65} 0 Z`, {
      x: x0,
      y: y0,
      color: accent,
      opacity: 0.22,
    });
    page.drawSvgPath(`M 0 0 Q ${w * 0.3} ${-height * 0.7} ${w * 0.6} 0 Z`, {
      x: x0 + w * 0.4,
      y: y0,
      color: accent,
      opacity: 0.32,
    });
    page.drawRectangle({ x: x0, y: y0, width: w, height: 6, color: rgb(0.3, 0.55, 0.3), opacity: 0.7 });
    const houses = 5 + (variant % 3);
    for (let i = 0; i < houses; i++) {
      const hw = 34 + ((i * 7 + variant * 5) % 3) * 8;
      const h = 30 + ((i * 11 + variant * 3) % 4) * 9;
      const hx = x0 + 24 + i * ((w - 80) / houses);
      page.drawRectangle({
        x: hx,
        y: y0,
        width: hw,
        height: h,
        color: i % 2 ? WHITE : rgb(0.96, 0.94, 0.9),
        borderColor: accent,
        borderWidth: 1,
      });
      page.drawSvgPath(`M 0 0 L ${hw / 2 + 4} -16 L ${hw + 8} 0 Z`, { x: hx - 4, y: y0 + h, color: accent });
      page.drawRectangle({ x: hx + hw / 2 - 5, y: y0, width: 10, height: 16, color: accent, opacity: 0.6 });
      page.drawRectangle({
        x: hx + 5,
        y: y0 + h - 14,
        width: 8,
        height: 8,
        color: tint,
        borderColor: accent,
        borderWidth: 0.5,
      });
      page.drawRectangle({
        x: hx + hw - 13,
        y: y0 + h - 14,
        width: 8,
        height: 8,
        color: tint,
        borderColor: accent,
        borderWidth: 0.5,
      });
      const tx = hx + hw + 10;
      page.drawRectangle({ x: tx - 1.5, y: y0, width: 3, height: 14, color: rgb(0.45, 0.32, 0.2) });
      page.drawCircle({ x: tx, y: y0 + 22, size: 10, color: rgb(0.3, 0.55, 0.3) });
    }
    page.drawText(caption, { x: x0, y: y0 - 14, size: 9, font: this.fonts.italic, color: MUTED });
    return this.space(10);
  }

  /** A form to fill in by hand: labelled lines to write on, then boxes to tick. */
  handForm(title: string, fields: string[], ticks: string[]): this {
    const height = 54 + fields.length * 28 + 26;
    const top = this.take(height);
    const page = this.page;
    page.drawRectangle({
      x: this.left,
      y: top - height,
      width: this.width,
      height,
      borderColor: this.theme.accent,
      borderWidth: 1.2,
      borderDashArray: [5, 3],
    });
    page.drawText(title, {
      x: this.left + 16,
      y: top - 26,
      size: 12.5,
      font: this.fonts.bold,
      color: this.theme.accent,
    });
    fields.forEach((field, i) => {
      const y = top - 56 - i * 28;
      page.drawText(field, { x: this.left + 16, y, size: 10.5, font: this.fonts.regular, color: TEXT });
      page.drawLine({
        start: { x: this.left + 110, y: y - 2 },
        end: { x: this.left + this.width - 16, y: y - 2 },
        thickness: 0.6,
        color: MUTED,
      });
    });
    let x = this.left + 16;
    const y = top - 56 - fields.length * 28;
    for (const tick of ticks) {
      page.drawRectangle({ x, y: y - 1, width: 10, height: 10, borderColor: TEXT, borderWidth: 0.8 });
      page.drawText(tick, { x: x + 15, y, size: 10.5, font: this.fonts.regular, color: TEXT });
      x += 15 + this.fonts.regular.widthOfTextAtSize(tick, 10.5) + 22;
    }
    return this.space(14);
  }

  /** A table of contents in a tinted box: titles on the left, page numbers right-aligned, dotted leaders. */
  contents(title: string, entries: [string, number][]): this {
    const size = 11.5;
    const height = 46 + entries.length * 22;
    const top = this.take(height);
    const right = this.left + this.width - 20;
    this.page.drawRectangle({ x: this.left, y: top - height, width: this.width, height, color: this.theme.tint });
    this.page.drawRectangle({ x: this.left, y: top - height, width: 5, height, color: this.theme.accent });
    this.page.drawText(title, {
      x: this.left + 20,
      y: top - 26,
      size: 12.5,
      font: this.fonts.bold,
      color: this.theme.accent,
    });
    entries.forEach(([entry, pageNo], i) => {
      const y = top - 52 - i * 22;
      const number = String(pageNo);
      const numberWidth = this.fonts.bold.widthOfTextAtSize(number, size);
      const entryWidth = this.fonts.regular.widthOfTextAtSize(entry, size);
      this.page.drawText(entry, { x: this.left + 20, y, size, font: this.fonts.regular, color: TEXT });
      this.page.drawLine({
        start: { x: this.left + 26 + entryWidth, y: y + 2 },
        end: { x: right - numberWidth - 6, y: y + 2 },
        thickness: 1,
        color: MUTED,
        dashArray: [1, 3],
      });
      this.page.drawText(number, { x: right - numberWidth, y, size, font: this.fonts.bold, color: this.theme.accent });
    });
    return this.space(14);
  }

  /** A table with a coloured header row and striped body rows; `widths` are fractions of the text width. */
  table(header: string[], rows: string[][], widths: number[], size = 10): this {
    const cols = widths.map((w) => w * this.width);
    const leading = size * 1.4;
    const drawRow = (cells: string[], font: PDFFont, fill: RGB | undefined, color: RGB) => {
      const wrapped = cells.map((cell, i) => wrap(cell, font, size, cols[i]! - 12));
      const height = Math.max(...wrapped.map((w) => w.length)) * leading + 10;
      const top = this.take(height);
      if (fill) this.page.drawRectangle({ x: this.left, y: top - height, width: this.width, height, color: fill });
      let x = this.left;
      wrapped.forEach((lines, i) => {
        lines.forEach((line, j) =>
          this.page.drawText(line, { x: x + 6, y: top - 5 - size - j * leading, size, font, color }),
        );
        x += cols[i]!;
      });
    };
    drawRow(header, this.fonts.bold, this.theme.accent, WHITE);
    rows.forEach((row, i) => drawRow(row, this.fonts.regular, i % 2 === 1 ? this.theme.tint : undefined, TEXT));
    const bottom = this.y;
    this.page.drawLine({
      start: { x: this.left, y: bottom },
      end: { x: this.left + this.width, y: bottom },
      thickness: 1,
      color: this.theme.accent,
    });
    return this.space(16);
  }
}
