// @ts-check
import { accessSync, constants } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { findChromium, launchChromium } from '../chromium.js';

/** @param {{ executablePath: string, args: string[] }} found */
async function renderHeading(found) {
  const t0 = performance.now();
  const browser = await chromium.launch({ executablePath: found.executablePath, args: found.args });
  const launchMs = Math.round(performance.now() - t0);
  try {
    const page = await browser.newPage();
    await page.goto('data:text/html,<h1>hi</h1>');
    return { text: await page.textContent('h1'), launchMs };
  } finally {
    await browser.close();
  }
}

describe('findChromium', () => {
  const saved = process.env.CHROME_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.CHROME_PATH;
    else process.env.CHROME_PATH = saved;
  });

  it('finds an executable with quiet headless flags, and it renders a page', async () => {
    const found = await findChromium();
    accessSync(found.executablePath, constants.X_OK);
    expect(found.args).toEqual(
      expect.arrayContaining([
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ]),
    );
    if (process.getuid?.() === 0) expect(found.args).toContain('--no-sandbox');
    const { text, launchMs } = await renderHeading(found);
    console.log(`chromium (${found.source}, ${found.executablePath}) launched in ${launchMs} ms`);
    expect(text).toBe('hi');
  });

  it('falls back to the browser inside @sparticuz/chromium, which renders too', async () => {
    delete process.env.CHROME_PATH;
    const found = await findChromium({ systemPaths: [] });
    expect(found.source).toBe('@sparticuz/chromium');
    expect((await renderHeading(found)).text).toBe('hi');
  });

  it('honours CHROME_PATH and rejects one that is not executable', async () => {
    process.env.CHROME_PATH = '/nonexistent/chrome';
    await expect(findChromium()).rejects.toThrow(/CHROME_PATH=\/nonexistent\/chrome is not an executable/);
    const system = await findChromium({ systemPaths: ['/usr/bin/chromium'] }).catch(() => undefined);
    if (system) {
      process.env.CHROME_PATH = system.executablePath;
      expect(await findChromium()).toMatchObject({ source: 'CHROME_PATH', executablePath: system.executablePath });
    }
  });

  it('launchChromium starts a headless browser', async () => {
    const browser = await launchChromium();
    try {
      expect(browser.isConnected()).toBe(true);
      expect(browser.version()).toMatch(/^\d+\./);
    } finally {
      await browser.close();
    }
  });
});
