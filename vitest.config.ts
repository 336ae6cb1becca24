import { defineConfig } from 'vitest/config';
import { BROWSER_VARIABLE, chooseBrowser } from './test/support/browser.ts';

// Files that drive a real browser. Where none can be found (test/support/browser.ts) they are
// left out, and test/support/announce.ts says so in one line with how to enable them; in CI, or
// when a browser was named explicitly, a missing one is an error instead.
const BROWSER_TEST_FILES = ['test/e2e/**', 'test/**/*.e2e.test.ts', 'test/core/app.test.ts', 'test/core/restart.test.ts', 'test/core/auth/leaks.test.ts', 'test/browser-host/launch.test.ts'];
const browser = chooseBrowser();
const browserMissing = browser.kind === 'none';
if (browser.kind === 'none' && (process.env.CI || process.env[BROWSER_VARIABLE])) throw new Error(`No browser for the tests: ${browser.reason}`);

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/reliability/**', 'node_modules/**', ...(browserMissing ? BROWSER_TEST_FILES : [])],
    globalSetup: ['test/support/announce.ts'],
    // The second counts each store-contract suite's tests per dialect and fails the run when one ran fewer.
    reporters: ['default', './test/support/dialectParity.ts'],
    setupFiles: ['test/support/fastCheckSeed.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
