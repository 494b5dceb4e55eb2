// @ts-check
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // Real servers and a real browser start here; a loaded 2-core CI machine needs the slack.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
