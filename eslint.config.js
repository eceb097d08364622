// Lint rules: ESLint's and typescript-eslint's recommended sets, minus the few that would rewrite working code wholesale.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** The Node globals the plain JavaScript files (runners, bench servers, examples) use. */
const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'fetch',
    'Request',
    'Response',
    'Headers',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'performance',
    'structuredClone',
    'queueMicrotask',
    'globalThis',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'crypto',
  ].map((name) => [name, 'readonly']),
);

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', '.container/**', 'coverage/**', '.data/**', 'src/client/generated.ts'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: NODE_GLOBALS },
  },
  {
    // Tests and benches read answers field by field: `any` there is an assertion's convenience, not a type.
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The Jest recipe runs under Jest, which provides its test functions as globals.
    files: ['examples/jest.test.mjs'],
    languageOptions: {
      globals: Object.fromEntries(['describe', 'test', 'it', 'expect', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach', 'jest'].map((n) => [n, 'readonly'])),
    },
  },
  {
    // The CommonJS recipes and the CommonJS cold start are CommonJS on purpose: require() is what they show.
    files: ['examples/commonjs/**/*.js', 'examples/commonjs-ts-jest/**/*.js', 'bench/cold/*.cjs', 'test/package/cold/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Callbacks that Playwright runs in the page see the browser's globals.
    files: ['test/browser/**'],
    languageOptions: { globals: { document: 'readonly', window: 'readonly' } },
  },
  {
    rules: {
      // Unused code is an error; a leading underscore marks what a signature must accept but does not use.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `catch {}` with a comment is the house way to say "nothing to do".
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A `let` assigned once, after a closure that reads it was built (collaborators that see each other), stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
);
