import { describe, expect, it } from 'vitest';
import {
  ACTUAL_SIZE,
  FIT_WIDTH,
  fitWidthScale,
  MAX_ZOOM,
  MIN_ZOOM,
  pageAnnouncement,
  pageForKey,
  pageNumberError,
  parsePageNumber,
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
});
