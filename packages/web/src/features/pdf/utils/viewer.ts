// The viewer's rules that need no DOM: zoom steps, fit width, the page number field and the keys
// (docs/web-app.md, "PDF viewer").
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

/** The page a key goes to from `page` of `total`: ← PageUp back, → PageDown on, Home first, End last. */
export function pageForKey(key: string, page: number, total: number): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'PageUp':
      return Math.max(1, page - 1);
    case 'ArrowRight':
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
