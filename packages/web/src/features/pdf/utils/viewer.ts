// The viewer's rules that need no DOM: zoom steps, fit width, the page number field, the keys, the
// canvas's size and `?id=` (docs/web-app.md, "PDF viewer").
import { PDF_SCALE } from '@/config/constants';

/** The scales that zoom in / zoom out step through; the first and last are the limits. */
export const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4] as const;
export const MIN_ZOOM = ZOOM_STEPS[0];
export const MAX_ZOOM = ZOOM_STEPS[ZOOM_STEPS.length - 1]!;

/** Fit width follows the box's width; a scale stays as chosen. */
export type Zoom = { mode: 'fit' } | { mode: 'scale'; scale: number };
export const FIT_WIDTH: Zoom = { mode: 'fit' };
export const ACTUAL_SIZE: Zoom = { mode: 'scale', scale: PDF_SCALE };

/** Two scales closer than this count as the same step (fit width rarely lands on a step exactly). */
const SAME = 0.005;

const clampZoom = (scale: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, scale));

/** The next step above `scale`, or the largest. */
export function zoomInFrom(scale: number): number {
  return ZOOM_STEPS.find((step) => step > scale + SAME) ?? MAX_ZOOM;
}

/** The next step below `scale`, or the smallest. */
export function zoomOutFrom(scale: number): number {
  return [...ZOOM_STEPS].reverse().find((step) => step < scale - SAME) ?? MIN_ZOOM;
}

/** The scale at which a page `pageWidth` wide at scale 1 fills `available` CSS pixels; 1 while unmeasured. */
export function fitWidthScale(available: number, pageWidth: number): number {
  if (!(available > 0) || !(pageWidth > 0)) return PDF_SCALE;
  return clampZoom(available / pageWidth);
}

/**
 * The zoom the viewer starts at: actual size (scale 1), unless the box is narrower than the page at
 * scale 1: then fit width. An unmeasured box (0) counts as wide enough.
 */
export function startZoom(available: number, pageWidth: number): Zoom {
  return available > 0 && available < pageWidth * PDF_SCALE ? FIT_WIDTH : ACTUAL_SIZE;
}

/** The scale a zoom draws at, for a page `pageWidth` wide at scale 1 in a box `available` wide. */
export function scaleOf(zoom: Zoom, available: number, pageWidth: number): number {
  return zoom.mode === 'fit' ? fitWidthScale(available, pageWidth) : zoom.scale;
}

/** `125%`: how the zoom control shows a scale. */
export function percent(scale: number): string {
  return `${Math.round(scale * 100)}%`;
}

/** The message of a page number the field refuses. */
export function pageNumberError(total: number): string {
  return `Enter a page number from 1 to ${total}.`;
}

/** The page a typed number names: digits only (spaces around allowed), from 1 to `total`; else null. */
export function parsePageNumber(input: string, total: number): number | null {
  const text = input.trim();
  if (!/^\d{1,9}$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= total ? page : null;
}

/**
 * The page a key goes to from `page` of `total`: ← PageUp back, → PageDown on, Home first, End last.
 * ← and → page only while the page fits its box's width (`scrollsSideways` false); otherwise they
 * scroll it, as in pdf.js's viewer, so the page's right side can be reached by keyboard.
 */
export function pageForKey(key: string, page: number, total: number, scrollsSideways = false): number | null {
  switch (key) {
    case 'ArrowLeft':
      return scrollsSideways ? null : Math.max(1, page - 1);
    case 'PageUp':
      return Math.max(1, page - 1);
    case 'ArrowRight':
      return scrollsSideways ? null : Math.min(total, page + 1);
    case 'PageDown':
      return Math.min(total, page + 1);
    case 'Home':
      return 1;
    case 'End':
      return total;
    default:
      return null;
  }
}

/** What the live region says after a page change. */
export function pageAnnouncement(page: number, total: number): string {
  return `Page ${page} of ${total}`;
}

/** pdf.js viewer's maxCanvasPixels: iOS Safari leaves a canvas of more pixels blank. */
export const MAX_CANVAS_PIXELS = 2 ** 24;

export interface CanvasSize {
  /** The backing store, in device pixels. */
  width: number;
  height: number;
  /** The size on screen, in CSS pixels: the page's, whatever the backing store. */
  cssWidth: number;
  cssHeight: number;
  /** Device pixels per CSS pixel actually drawn: `ratio`, or less when capped. */
  outputScale: number;
}

/**
 * The canvas for a page `width` × `height` CSS pixels on a screen of `ratio` device pixels per CSS
 * pixel. The backing store has at most `maxPixels` pixels (pdf.js's viewer caps it so): past that the
 * page is drawn at a lower density and stretched by CSS to the same size, less sharp but not blank.
 */
export function canvasSize(width: number, height: number, ratio: number, maxPixels = MAX_CANVAS_PIXELS): CanvasSize {
  const area = width * height;
  const outputScale = area > 0 ? Math.min(ratio, Math.sqrt(maxPixels / area)) : ratio;
  // floor(w·s) × floor(h·s) ≤ w·h·s² ≤ maxPixels.
  return {
    width: Math.floor(width * outputScale),
    height: Math.floor(height * outputScale),
    cssWidth: Math.floor(width),
    cssHeight: Math.floor(height),
    outputScale,
  };
}

/** Largest id the server's store holds (an `integer` column; parse-id.ts on the server). */
export const MAX_PDF_ID = 2_147_483_647;

/** A PDF id from `?id=`, as the server takes ids: canonical digits (`7`, not `07`), 1 to MAX_PDF_ID; else null. */
export function parsePdfId(text: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_PDF_ID ? id : null;
}
