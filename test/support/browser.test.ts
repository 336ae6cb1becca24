import { describe, expect, it } from 'vitest';
import { BROWSER_VARIABLE, chooseBrowser, describeBrowserChoice } from './browser.ts';

describe('the test browser resolver', () => {
  it('takes an explicit executable first, and says where the choice came from', () => {
    const choice = chooseBrowser({ [BROWSER_VARIABLE]: process.execPath });
    expect(choice).toEqual({ kind: 'explicit', executablePath: process.execPath });
    expect(describeBrowserChoice(choice)).toBe(`Browser for tests: ${process.execPath} (from ${BROWSER_VARIABLE})`);
  });

  it('an explicit executable that does not exist is no browser, with the reason and how to fix it', () => {
    const choice = chooseBrowser({ [BROWSER_VARIABLE]: '/no/such/chrome' });
    expect(choice).toEqual({ kind: 'none', reason: `${BROWSER_VARIABLE}=/no/such/chrome does not exist` });
    expect(describeBrowserChoice(choice)).toMatch(/^Browser tests skipped: .*does not exist\. Install Chrome, Chromium or Edge, or set BREACH_MONITOR_CHROMIUM=\/path\/to\/chrome, to run them\.$/);
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')('"packaged" skips system browsers for the npm Chromium', () => {
    const choice = chooseBrowser({ [BROWSER_VARIABLE]: 'packaged' });
    expect(choice).toMatchObject({ kind: 'packaged', version: expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    expect(describeBrowserChoice(choice)).toMatch(/^Browser for tests: headless Chromium from @sparticuz\/chromium \d+/);
  });
});
