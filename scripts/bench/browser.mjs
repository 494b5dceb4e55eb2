// Timings in headless Chromium (playwright-core, the Chromium testkit finds) on loopback, each in a
// fresh browser context (empty cache, no storage), so every load is a first visit:
// - first-contentful-paint of `/` (the 'paint' entry, read with a buffered PerformanceObserver);
// - on /pdfviewer, the time from navigation start to the first canvas pixel that is neither
//   transparent nor white (the page's canvas is polled with getImageData every 10 ms).
import { launchChromium } from '@hello/testkit/chromium';
import { onCleanup } from './processes.mjs';
import { median } from './stats.mjs';

/* global document -- the probes below run in the page, not in Node */

/**
 * In the page: resolves with the first-contentful-paint time (ms since navigation start).
 * @returns {Promise<number>}
 */
function firstContentfulPaint() {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no first-contentful-paint within 60 s')), 60_000);
    new PerformanceObserver((list) => {
      const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint');
      if (entry) {
        clearTimeout(timer);
        resolve(entry.startTime);
      }
    }).observe({ type: 'paint', buffered: true });
  });
}

/**
 * In the page: resolves with the time (ms since navigation start) a canvas first shows ink.
 * @returns {Promise<number>}
 */
function firstCanvasPixel() {
  return new Promise((resolve, reject) => {
    const deadline = performance.now() + 60_000;
    const check = () => {
      for (const canvas of document.querySelectorAll('canvas')) {
        if (canvas.width === 0 || canvas.height === 0) continue;
        const context = canvas.getContext('2d', { willReadFrequently: true });
        if (!context) continue;
        const pixels = new Uint32Array(context.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
        // Not blank: some pixel is opaque and not white (0xffffffff in any byte order).
        for (let i = 0; i < pixels.length; i++) {
          const p = pixels[i];
          if (p >>> 24 !== 0 && p !== 0xffffffff) return resolve(performance.now());
        }
      }
      if (performance.now() > deadline) return reject(new Error('no ink on a canvas within 60 s'));
      setTimeout(check, 10);
    };
    check();
  });
}

/**
 * @param {string} base the product's origin
 * @param {number} runs how many loads of each page (the median is reported)
 */
export async function measureBrowser(base, runs) {
  const browser = await launchChromium();
  const unregister = onCleanup(() => browser.close());
  try {
    /** @type {number[]} */
    const fcp = [];
    /** @type {number[]} */
    const canvas = [];
    for (let i = 0; i < runs; i++) {
      for (const [path, probe, into] of /** @type {const} */ ([
        ['/', firstContentfulPaint, fcp],
        ['/pdfviewer', firstCanvasPixel, canvas],
      ])) {
        const context = await browser.newContext();
        try {
          const page = await context.newPage();
          await page.goto(base + path, { waitUntil: 'commit', timeout: 60_000 });
          into.push(await page.evaluate(probe));
        } finally {
          await context.close();
        }
      }
    }
    return { fcpMs: median(fcp), canvasMs: median(canvas), fcpRuns: fcp, canvasRuns: canvas };
  } finally {
    unregister();
    await browser.close();
  }
}
