// @ts-check
// `npm run lint` (and so `npm test` and CI). Type-aware rules from typescript-eslint, the React
// hooks rules for the web app, and the layering of the code as import boundaries.
import js from '@eslint/js';
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** `no-restricted-imports` patterns: each layer names what it may not reach (one entry per file: a later one would replace it). */
const TRANSPORT = ['koa', 'koa-*', '@koa/*', 'socket.io', 'socket.io-client'];
const NO_SCRIPTS = [['**/scripts/**'], 'Server code and its tests import no script.'];
/** Production code only: tests exercise the layers together on purpose. */
const TESTS = ['**/*.test.{ts,tsx}', '**/*.testing.ts', 'realtime-server/testing/**'];
const layer = (files, ignores, ...groups) => ({
  files,
  ignores: [...ignores, ...TESTS],
  rules: { 'no-restricted-imports': ['error', { patterns: groups.map(([group, message]) => ({ group, message })) }] },
});
const SERVICES = ['realtime-server/services/**', 'realtime-server/policies/**', 'realtime-server/presenters/**'];
const OWN_LAYER = ['realtime-server/contract/**', 'realtime-server/http/routes/**', 'realtime-server/realtime/**', ...SERVICES];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.tmp/**', 'web/src/routeTree.gen.ts', 'playwright-report/**', 'test-results/**'] },
  js.configs.recommended,
  comments.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    // A rule switched off must say why on the same line (`// eslint-disable-next-line rule -- reason`).
    rules: { '@eslint-community/eslint-comments/require-description': ['error', { ignore: [] }] },
  },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Koa handlers and Socket.IO listeners are async functions handed to callback-typed APIs by design.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
    },
  },
  {
    // Tests read JSON answers and socket payloads whose shape is exactly what they assert;
    // typing each one would restate the contract in every test. Stubs of async interfaces are
    // async functions that need not await.
    // `*.testing.ts`: a helper the tests beside it share (not itself a test file).
    files: ['**/*.test.{ts,tsx}', '**/*.testing.ts', 'web/e2e/**', 'realtime-server/testing/**'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // A browser test's clean-up that awaits (a request, closing a page) goes in the `defer` fixture
    // (web/e2e/fixtures.ts), not a `finally`: after a timeout a finally's first await fails at once and its
    // error replaces the test's own, which once made a test stuck on a button read as a server that never answered.
    files: ['web/e2e/**'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: 'TryStatement > BlockStatement.finalizer AwaitExpression',
        message: 'Register the clean-up with the defer fixture: a finally that awaits hides the test\'s own error after a timeout.',
      }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat['recommended-latest'] ?? reactHooks.configs['recommended-latest']],
    languageOptions: { globals: globals.browser },
  },
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: globals.node } },
  {
    // A Knex builder is a thenable that runs its query again on every await: a cast to Promise hides
    // that and invites a second await (a memoised look-up ran twice per request). `fetched()` instead.
    files: ['db/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "TSAsExpression > TSTypeReference.typeAnnotation[typeName.name='Promise']",
        message: 'A query builder is not a promise (each await runs it again): wrap it in fetched() from db/repositories/types.ts.',
      }],
    },
  },

  // The layering: every arrow between folders runs one way.
  layer(['web/src/**'], [],
    [['**/realtime-server/*', '!**/realtime-server/contract', '**/realtime-server/*/**', '!**/realtime-server/contract/**'], 'The web app reaches the server only through realtime-server/contract.'],
    [['**/db/**'], 'The web app never imports the data layer.']),
  layer(['realtime-server/contract/**'], [],
    [['../*', ...TRANSPORT, 'knex'], 'The contract is shared with the browser: it imports only zod and itself.']),
  layer(['db/**'], [],
    [['**/realtime-server/**', ...TRANSPORT], 'db/ is the bottom layer: it imports no service and no transport.'], NO_SCRIPTS),
  layer(SERVICES, [],
    [['**/http/**', '**/realtime/**', ...TRANSPORT], 'Services, policies and presenters import no transport (http/, realtime/, Koa, Socket.IO).'], NO_SCRIPTS),
  layer(['realtime-server/http/routes/**'], [],
    [['**/db/**'], 'Routes reach data only through services.'], NO_SCRIPTS),
  layer(['realtime-server/realtime/**'], [],
    [['**/http/**', 'koa', 'koa-*', '@koa/*'], 'The realtime layer shares no code with the HTTP transport; shared limits live outside http/.'], NO_SCRIPTS),
  layer(['realtime-server/**'], OWN_LAYER, NO_SCRIPTS),
);
