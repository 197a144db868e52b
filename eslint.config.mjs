// Lint for the whole tree: `npm run lint` (ESLint, then Prettier's check). CI runs it before the tests.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/*.example.*',
      '**/node_modules/**',
      '**/dist/**',
      'build/**',
      '.tmp/**',
      '.strapi/**',
      '.cache/**',
      'types/generated/**',
      'public/**',
      'database/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A parameter or binding kept for its position is named with a leading underscore.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // The server logs through strapi.log; a stray console.log is a leftover.
      'no-console': ['error', { allow: ['info', 'warn', 'error', 'debug'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // `interface Services extends ServicesOf<typeof services> {}`: how a feature adds its services
      // to getService's registry (declaration merging needs an interface).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      'prefer-const': 'error',
    },
  },
  // Plain CommonJS scripts: the benchmarks, the repository's scripts, Jest's config.
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      // `const crypto = require('node:crypto')` names the module as Node's global does.
      'no-redeclare': ['error', { builtinGlobals: false }],
      // Benchmarks and scripts print their figures and progress.
      'no-console': 'off',
    },
  },
  // The two browser apps: hooks rules, browser globals.
  {
    files: [
      'src/plugins/api-suite/admin/**/*.{ts,tsx}',
      'src/plugins/api-suite/portal/**/*.{ts,tsx}',
      'src/plugins/api-suite/shared/**/*.{ts,tsx}',
      'src/admin/**/*.{ts,tsx}',
    ],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  // No import cycles in the plugin: a feature knows only what it imports. This rule skips `import type`;
  // `npm run lint:cycles` (dpdm, run by `npm run lint`) counts type imports too.
  {
    files: ['src/plugins/api-suite/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  // Tests may print what they measured.
  {
    files: ['tests/**/*.ts'],
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
  },
  prettier
);
