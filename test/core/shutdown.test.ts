// Closing the core leaves nothing subscribed: every owner disposed what it subscribed (the
// sign-in's hold on its service and tokens, the app's hold on the session's scheduler and
// outbox), so no event source keeps a closed core's callbacks alive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startCore } from '../../electron/core/app.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, type ReferenceService } from './auth/harness.ts';

describe('closing the core', () => {
  let reference: ReferenceService;
  let browser: Browser;

  beforeAll(async () => {
    reference = await startReference();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await reference?.close();
  });

  it('disposes every subscription it made, signed in with an open account', async () => {
    const core = await startCore({
      dataDir: tempDir('bm-shutdown'),
      keychain: false,
      validateResults: true,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: { openExternal: async (url) => driveBrowser(browser, signInAs('bob@example.com')).opener(url), notify: () => {}, setTrayState: () => {} },
    });
    const events = core.bus.subscribe(() => {});
    expect(await core.router.invoke('auth-sign-in', {})).toMatchObject({ state: 'signed-in' });
    expect((await core.router.invoke('sync-now', {})).lastError).toBeUndefined();

    // While running, each source has its subscribers (so the counts below measure something).
    const running = core.listenerCounts();
    expect(running.bus).toBe(1);
    expect(running.auth).toBeGreaterThanOrEqual(4); // the app on CurrentAuth, CurrentAuth on the service, the service on both token events
    expect(running.scheduler).toBeGreaterThanOrEqual(2); // the app's progress and sync listeners
    expect(running.outbox).toBeGreaterThanOrEqual(2); // the app's and the scheduler's

    await core.close();
    expect(core.listenerCounts()).toEqual({ bus: 0, auth: 0, scheduler: 0, outbox: 0 });
    events.dispose(); // the bus already let it go: disposing again is harmless
  }, 60_000);
});
