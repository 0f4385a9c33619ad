// ESLint flat config (`npm run lint`, run by `npm test`'s pretest). typescript-eslint's `recommended`
// set without type information: type-aware linting would re-run the type checker on every file, which
// `npm run typecheck` already does, and costs minutes on a 2-core machine.
import js from '@eslint/js';
import globals from 'globals';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: [
      // Not source, or written by a tool.
      '**/node_modules/**',
      '**/build/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      'tmp/**',
      '**/*.tmp.*', // files written then renamed (.gitignore)
      'docs/**',
      'test/fixtures/**',
      'bench/results*',
      'packages/client/src/schema.d.ts', // openapi-typescript output (`npm run client:generate`)
      'plugins/claude-code/hooks/hook.cjs', // esbuild bundle of plugins/claude-code/scripts/*.mjs (scripts/bundle.mjs)
      // Landed migrations are frozen documents, sha-checked by test/unit/migrations-frozen.test.ts:
      // they are never edited, so never linted.
      'src/db/migrations/**',
    ],
  },

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // An unused binding is dead code or a bug; a leading `_` marks one kept on purpose
      // (a positional parameter, a destructured-away field).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'all',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
    },
  },

  // The server, its CLI, the plugins' hook programs and the build scripts run on Node.
  {
    files: ['src/**', 'bin/**', 'scripts/**', 'plugins/**', 'packages/**', 'bench/**', 'test/**', 'console/vite.config.ts', '*.{js,mjs,cjs,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  // CommonJS files (the plugin's bundled hook, .dependency-cruiser.cjs).
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.commonjs } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Tests and benchmarks read the HTTP response bodies of the API under test untyped on purpose (`any`): they
  // assert on the fields, and a typed body would only restate the schema being tested. Every other rule stays on.
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The console is a browser bundle.
  {
    files: ['console/src/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
