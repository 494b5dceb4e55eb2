// ESLint flat config for the whole monorepo (`npm run lint`). Type-unaware rules only, so it
// needs no build and stays fast; `npm run typecheck` is where the types are checked.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier/flat';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports a file may not make, as no-restricted-imports patterns: a regex on the import's path. */
const forbid = (regex, message) => ({ regex, message });
const webFeatures = readdirSync(new URL('./packages/web/src/features', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.tmp/',
      '**/coverage/',
      'data/',
      '**/test-results/',
      '**/playwright-report/',
      '**/*.tsbuildinfo',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    // Node everywhere by default: servers, scripts, tests, configs.
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // No import cycles in any package's code (type-only ones included: they tangle the reading too).
    files: ['packages/*/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/*/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The server's layers: repositories are plain queries, below everything that uses them.
    files: ['packages/server/src/repositories/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid('^\\.\\./(auth|mail|routes|plugins)/', 'Repositories import no auth, mail, routes or plugins.'),
          ],
        },
      ],
    },
  },
  {
    // The web app's layers: shared code (components, lib) imports no feature.
    files: ['packages/web/src/{components,lib,utils,config}/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [forbid('^@/features/|(^|/)features/', 'Shared code imports no feature.')] },
      ],
    },
  },
  // …and no feature imports another one (the app's routes put features together).
  ...webFeatures.map((feature) => ({
    files: [`packages/web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            forbid(
              `^@/features/(?!${feature}/)|^(\\.\\./)+(?!${feature}/)[^./][^/]*/(api|components|utils)/`,
              `Feature ${feature} imports no other feature.`,
            ),
          ],
        },
      ],
    },
  })),
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
  // Last: formatting is Prettier's (`npm run format`), so no rule here argues with it.
  prettier,
);
