import { statSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect } from '../tests/fixtures';
import { repoRoot } from '../support/product-server';

/** Small PNGs for the README, written to docs/screenshots/. */
const dir = path.join(repoRoot, 'docs', 'screenshots');
const MAX_BYTES = 150 * 1024;

export async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(dir, `${name}.png`);
  // Let fonts settle and transitions end so the picture is stable.
  await page.evaluate(async () => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
    await document.fonts.ready;
  });
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
  expect(statSync(file).size, `${name}.png stays small`).toBeLessThan(MAX_BYTES);
}

/** The phone's page is never wider than its screen (nothing scrolls sideways). */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, 'page width').toBeLessThanOrEqual(innerWidth);
}
