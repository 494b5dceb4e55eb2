import { defineConfig } from '@playwright/test';
import { findChromium } from '@hello/testkit/chromium';
import type { E2EOptions } from './tests/fixtures';

// `npm run screenshots -w @hello/e2e`: refreshes the README's pictures in docs/screenshots/.
// Not part of `npm test` (the main config's testDir is `tests`). One server is enough.
process.env.E2E_BACKENDS ??= 'sqlite';

const chromium = await findChromium();

export default defineConfig<E2EOptions>({
  testDir: 'screenshots',
  outputDir: 'test-results/screenshots',
  globalSetup: './global-setup.ts',
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    backend: 'sqlite',
    viewport: { width: 1000, height: 700 },
    deviceScaleFactor: 1,
    launchOptions: { executablePath: chromium.executablePath, args: chromium.args },
  },
});
