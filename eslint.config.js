// ESLint flat config for the whole monorepo (`npm run lint`). Type-unaware rules only, so it
// needs no build and stays fast; `npm run typecheck` is where the types are checked.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/', '**/dist/', '**/.tmp/', '**/coverage/', 'data/',
      '**/test-results/', '**/playwright-report/', '**/*.tsbuildinfo',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Node everywhere by default: servers, scripts, tests, configs.
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Frozen migrations see the schema as it was then, not today's types: Kysely<any> by design.
    files: ['packages/server/src/db/migrate.ts', 'packages/server/src/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['packages/web/**/*.{ts,tsx,js,jsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Playwright specs run code in the page (page.evaluate), so they see browser globals too.
    files: ['packages/e2e/**/*.{ts,js}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
