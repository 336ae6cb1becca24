// Offline is told within seconds while the person does nothing: the reference service runs as a
// real child process (server/main.ts, as `npm start` runs it), the real core and the browser host
// in Chromium. After the first sync nobody touches anything; the service is killed with SIGKILL
// (no goodbye on any connection), and the status bar must say "Offline" within 10 s; started
// again on the same port, "Online" within 2 s of it answering.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startServiceProcess, type ServiceProcess } from '../../tools/referenceService.ts';
import { freePort, tempDir } from '../core/auth/harness.ts';
import { E2E, ensureRendererBuilt, eventually, launchChromium } from './harness.ts';

describe('offline while idle, with the service process killed', { timeout: 90_000 }, () => {
  let browser: Browser;
  let e2e: E2E;
  let page: Page;
  let service: ServiceProcess | undefined;
  const serviceDir = tempDir('bm-e2e-killed');

  beforeAll(async () => {
    ensureRendererBuilt();
    browser = await launchChromium();
    e2e = new E2E({ browser, email: 'alice@example.com' });
    e2e.servicePort = await freePort();
    service = await startServiceProcess({ port: e2e.servicePort, dataDir: serviceDir, launch: { source: 'demo' } });
    await e2e.startApp();
    page = await e2e.openApp();
  }, 90_000);

  afterAll(async () => {
    await e2e?.close();
    await service?.stop();
    await browser?.close();
    rmSync(serviceDir, { recursive: true, force: true });
  });

  it('says Offline within 10 s of the service dying, and Online within 2 s of it answering again, with nobody acting', async () => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor({ timeout: 30_000 });
    await eventually('the first sync', async () => ((await e2e.call('sync-status', {})).lastSyncAt !== undefined ? true : undefined), 60_000);
    const bar = page.getByRole('banner');
    await bar.getByText('Online', { exact: true }).waitFor();
    // Idle from here on: the next sync is the interval's, minutes away.
    expect((await e2e.call('settings-get', {})).syncIntervalMinutes).toBeGreaterThanOrEqual(5);

    const killed = service!;
    service = undefined;
    expect(killed.child.kill('SIGKILL')).toBe(true);
    await killed.exited;
    const diedAt = Date.now();
    await bar.getByText('Offline', { exact: true }).waitFor({ timeout: 12_000 });
    const toldOffline = Date.now() - diedAt;
    expect(toldOffline).toBeLessThan(10_000);

    service = await startServiceProcess({ port: e2e.servicePort, dataDir: serviceDir, launch: { source: 'demo' } });
    const answeringAt = Date.now();
    await bar.getByText('Online', { exact: true }).waitFor({ timeout: 4_000 });
    const toldOnline = Date.now() - answeringAt;
    expect(toldOnline).toBeLessThan(2_000);
    // Back, the app syncs by itself: the outage's wait is over.
    await bar.getByText(/Last synced just now/).waitFor({ timeout: 10_000 });
    console.log(`offline-while-idle: told Offline ${toldOffline} ms after the kill, Online ${toldOnline} ms after the service answered`);
  });
});
