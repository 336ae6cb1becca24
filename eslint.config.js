import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import local, { RENDERER_TIERS, SERVER_TIERS } from './tools/eslint/layers.js';

const root = import.meta.dirname;

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', '.test-builds/**', 'dist/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
    plugins: { local },
    rules: {
      'local/layers': ['error', { root }],
      // No module imports one that imports it back (tools/eslint/cycles.js).
      'local/no-cycles': ['error', { root }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Inside the core, folders stack in tiers and import only downward (CORE_TIERS, docs/architecture.md).
    files: ['electron/core/**'],
    rules: { 'local/tiers': ['error', { root, folder: 'electron/core' }] },
  },
  {
    // The renderer's tiers the same way: lib, then the stores and the component kit, then the
    // features, the shell and the entry (RENDERER_TIERS, docs/architecture.md).
    files: ['renderer/**'],
    rules: { 'local/tiers': ['error', { root, folder: 'renderer', tiers: RENDERER_TIERS }] },
  },
  {
    // The service's tiers: storage at the bottom, the features that own their persistence, the
    // routes built on them, and the composition on top (SERVER_TIERS, docs/architecture.md).
    files: ['server/**'],
    rules: { 'local/tiers': ['error', { root, folder: 'server', tiers: SERVER_TIERS }] },
  },
  {
    // Components reach the core through the stores in renderer/state, never by calling it.
    files: ['renderer/App.tsx', 'renderer/features/**', 'renderer/components/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/lib/core.ts'], importNames: ['invoke', 'monitor'], message: 'Call the core through a store in renderer/state.' }] }],
    },
  },
  {
    files: ['test/**', 'tools/**', '**/*.bench.ts', 'server/main.ts', 'server/cli/**', '**/write*.ts'],
    rules: { 'no-console': 'off' },
  },
);
