import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@hello/contract': path.resolve(import.meta.dirname, '../contract/src/index.ts') } },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // In test/api, every answer is checked against the OpenAPI description (test/helpers/openapi-answers.ts).
    setupFiles: ['test/helpers/openapi-answers-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
