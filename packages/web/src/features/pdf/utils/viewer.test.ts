import { describe, expect, it } from 'vitest';
import {
  ACTUAL_SIZE,
  canvasSize,
  FIT_WIDTH,
  fitWidthScale,
  MAX_CANVAS_PIXELS,
  MAX_PDF_ID,
  MAX_ZOOM,
  MIN_ZOOM,
  pageAnnouncement,
  pageForKey,
  pageNumberError,
  parsePageNumber,
  parsePdfId,
  percent,
  scaleOf,
  startZoom,
  zoomInFrom,
  zoomOutFrom,
} from './viewer';

describe('zoom', () => {
  it('steps in and out from any scale to the next step, and stops at the limits', () => {
    expect(zoomInFrom(1)).toBe(1.1);
    expect(zoomOutFrom(1)).toBe(0.9);
    // Fit width lands between steps: the next step in that direction.
    expect(zoomInFrom(0.52)).toBe(0.67);
    expect(zoomOutFrom(0.52)).toBe(0.5);
    expect(zoomInFrom(0.504)).toBe(0.67);
    expect(zoomInFrom(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOutFrom(MIN_ZOOM)).toBe(MIN_ZOOM);
  });

  it('fits the width of the box, within the limits; unmeasured counts as scale 1', () => {
    expect(fitWidthScale(300, 600)).toBe(0.5);
    expect(fitWidthScale(0, 600)).toBe(1);
    expect(fitWidthScale(10, 600)).toBe(MIN_ZOOM);
    expect(fitWidthScale(100_000, 600)).toBe(MAX_ZOOM);
  });

  it('starts at actual size, or at fit width when the box is narrower than the page at scale 1', () => {
    expect(startZoom(800, 595)).toEqual(ACTUAL_SIZE);
    expect(startZoom(595, 595)).toEqual(ACTUAL_SIZE);
    expect(startZoom(0, 595)).toEqual(ACTUAL_SIZE);
    expect(startZoom(320, 595)).toEqual(FIT_WIDTH);
    expect(scaleOf(FIT_WIDTH, 320, 640)).toBe(0.5);
    expect(scaleOf({ mode: 'scale', scale: 1.5 }, 320, 640)).toBe(1.5);
    expect(percent(0.6666)).toBe('67%');
  });
});

describe('page navigation', () => {
  it('accepts page numbers from 1 to the total, and nothing else', () => {
    expect(parsePageNumber('3', 4)).toBe(3);
    expect(parsePageNumber(' 4 ', 4)).toBe(4);
    for (const bad of ['', '0', '5', '-1', '2.5', 'two', '1e1', '0x2', '99999999999']) {
      expect(parsePageNumber(bad, 4), bad).toBeNull();
    }
    expect(pageNumberError(4)).toBe('Enter a page number from 1 to 4.');
  });

  it('maps ← → PageUp PageDown Home End to pages, within the document', () => {
    expect(pageForKey('ArrowRight', 1, 4)).toBe(2);
    expect(pageForKey('PageDown', 4, 4)).toBe(4);
    expect(pageForKey('ArrowLeft', 2, 4)).toBe(1);
    expect(pageForKey('PageUp', 1, 4)).toBe(1);
    expect(pageForKey('Home', 3, 4)).toBe(1);
    expect(pageForKey('End', 1, 4)).toBe(4);
    expect(pageForKey('ArrowDown', 1, 4)).toBeNull();
    expect(pageAnnouncement(2, 4)).toBe('Page 2 of 4');
  });

  it('leaves ← → to scroll while the page is wider than its box; PageUp PageDown Home End still page', () => {
    expect(pageForKey('ArrowRight', 1, 4, true)).toBeNull();
    expect(pageForKey('ArrowLeft', 2, 4, true)).toBeNull();
    expect(pageForKey('PageDown', 1, 4, true)).toBe(2);
    expect(pageForKey('PageUp', 2, 4, true)).toBe(1);
    expect(pageForKey('Home', 3, 4, true)).toBe(1);
    expect(pageForKey('End', 1, 4, true)).toBe(4);
    expect(pageForKey('ArrowRight', 1, 4, false)).toBe(2);
  });
});

describe('canvas size', () => {
  it('draws at the screen’s pixel density, CSS size in CSS pixels, while within the limit', () => {
    expect(canvasSize(612.4, 792, 2)).toEqual({
      width: 1224,
      height: 1584,
      cssWidth: 612,
      cssHeight: 792,
      outputScale: 2,
    });
    expect(canvasSize(612.4, 792, 1)).toEqual({
      width: 612,
      height: 792,
      cssWidth: 612,
      cssHeight: 792,
      outputScale: 1,
    });
  });

  it('keeps the canvas within 2^24 pixels (iOS Safari draws nothing beyond), at the same CSS size', () => {
    expect(MAX_CANVAS_PIXELS).toBe(16_777_216);
    // An A4 page (595.28 × 841.89) on a 3× iPhone: 200 % would be 18 M device pixels, 400 % 72 M.
    for (const zoom of [2, 4]) {
      const [width, height] = [595.28 * zoom, 841.89 * zoom];
      expect(width * height * 9).toBeGreaterThan(MAX_CANVAS_PIXELS);
      const size = canvasSize(width, height, 3);
      expect(size.width * size.height).toBeLessThanOrEqual(MAX_CANVAS_PIXELS);
      expect(size.width * size.height).toBeGreaterThan(MAX_CANVAS_PIXELS * 0.999); // as sharp as allowed
      expect(size.outputScale).toBeLessThan(3);
      expect(size.width).toBe(Math.floor(width * size.outputScale));
      expect([size.cssWidth, size.cssHeight]).toEqual([Math.floor(width), Math.floor(height)]);
    }
    expect(canvasSize(1000, 1000, 2, 1_000_000)).toEqual({
      width: 1000,
      height: 1000,
      cssWidth: 1000,
      cssHeight: 1000,
      outputScale: 1,
    });
  });
});

describe('?id=', () => {
  it('takes the ids the server takes: canonical digits from 1 to 2147483647', () => {
    expect(parsePdfId('1')).toBe(1);
    expect(parsePdfId('1234567890')).toBe(1_234_567_890);
    expect(parsePdfId('2147483647')).toBe(MAX_PDF_ID);
    for (const bad of [
      '',
      '0',
      '07',
      '+7',
      '-1',
      ' 7',
      '7 ',
      '1.0',
      '1e3',
      '0x10',
      'abc',
      '2147483648',
      '9999999999',
      '12345678901',
    ]) {
      expect(parsePdfId(bad), bad).toBeNull();
    }
  });
});
