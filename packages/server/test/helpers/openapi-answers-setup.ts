import { expect, vi } from 'vitest';

/**
 * A setup file (vitest.config.ts): in the API suite (test/api), every app a test builds checks each of
 * its answers against its own OpenAPI description (helpers/openapi-answers.ts), whether the test builds
 * it through buildTestApp or calls buildApp itself. The other suites send hostile or broken requests on
 * purpose and check the answers' contract their own way (helpers/contract-answer.ts).
 */
vi.mock('../../src/app.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/app.js')>();
  const testPath = expect.getState().testPath ?? '';
  if (!/[/\\]test[/\\]api[/\\]/.test(testPath)) return original;
  const { checkAnswersAgainstOpenApi } = await import('./openapi-answers.js');
  return {
    ...original,
    buildApp: async (...args: Parameters<typeof original.buildApp>) =>
      checkAnswersAgainstOpenApi(await original.buildApp(...args)),
  };
});
