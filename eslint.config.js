// ESLint 10 flat config: typescript-eslint's type-aware recommended rules over all our code.
// House overrides are few and each says why; see docs/architecture.md (Lint and format).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['**/dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**', 'data/**', 'packages/sdk/src/schema.d.ts', 'packages/panel/src/api/schema.d.ts'],
  },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // `_name` marks a deliberately unused binding; `{ omitted, ...rest }` is how we drop fields.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Re-raising a caught value (or an AbortSignal's reason) keeps it as it was, whatever its type.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
    },
  },
  {
    // Fastify plugins, hooks and handlers are async by contract: the promise is how they finish or fail,
    // whether or not they await anything.
    files: ['src/http/**/*.ts', 'bench/ceiling-server.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Tests read parsed JSON answers (`res.body.data.id`) whose shape the harness checks at run time
    // against the OpenAPI document; typing every answer again in the tests would only restate it.
    // Their fakes implement async interfaces (senders, mailers, Fastify handlers) without awaiting.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // The panel (packages/panel) runs in the browser: browser globals, and React's rules of hooks
    // (hooks called unconditionally, effect dependencies complete). Its own tsconfig (DOM, JSX, bundler
    // resolution) gives the type information, found by the project service.
    files: ['packages/panel/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest']],
    languageOptions: { globals: globals.browser },
  },
  {
    // Plain JavaScript (scripts, examples, this file): no type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
  },
);
