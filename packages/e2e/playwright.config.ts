import { defineConfig, type ReporterDescription } from '@playwright/test';
import { findChromium } from '@hello/testkit/chromium';
import type { E2EOptions } from './tests/fixtures';

// CHROME_PATH, else the system's Chromium, else the one inside @sparticuz/chromium. Never a
// download; no browser at all throws here, so the run fails loudly instead of skipping.
const chromium = await findChromium();

const ci = !!process.env.CI;

const reporter: ReporterDescription[] = [['list']];
// The root test runner (scripts/test.mjs) sets this to collect the counts; the json reporter
// reads the same variable for its output file.
if (process.env.PLAYWRIGHT_JSON_OUTPUT_NAME) {
  reporter.push(['json', { outputFile: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME }]);
}

export default defineConfig<E2EOptions>({
  testDir: 'tests',
  outputDir: 'test-results',
  globalSetup: './global-setup.ts',
  // Two cores: two browsers at once, each against one of the two servers, keeps both busy.
  workers: 2,
  fullyParallel: true,
  forbidOnly: ci,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter,
  use: {
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    actionTimeout: 15_000,
    navigationTimeout: 20_000,
    launchOptions: { executablePath: chromium.executablePath, args: chromium.args },
  },
  // Same tests, each project against its own server (global-setup.ts starts both).
  projects: [
    { name: 'sqlite', use: { backend: 'sqlite' } },
    { name: 'postgres', use: { backend: 'postgres' } },
  ],
});
