// "Sync now" after an outage: the person asked, so it tries at once whatever the backoff says,
// and the online state follows the facts — offline from the first request that could not reach
// the service, online again from the first one that did. The real reference service over
// loopback, stopped and started again on the same port and data folder; the real client, outbox,
// puller and scheduler of one account.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { OnlineState } from '../../../electron/core/sync/OnlineState.ts';
import type { SyncProgress, SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';
import { startService, type RunningService } from '../../../server/app.ts';

describe('Sync now after an outage, against the real service', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'core-outage-'));
  let service: RunningService | undefined;
  let port: number;
  let sync: AccountSync;
  let token: string;
  const online = new OnlineState();
  const progress: SyncProgress[] = [];

  const start = async () => (service = await startService({ port, dataDir, dev: true, logLevel: 'silent' }));
  const observed = async (run: Promise<SyncReport>) => {
    const report = await run;
    online.observeReport(report);
    return report;
  };

  beforeAll(async () => {
    port = 0;
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
    port = Number(new URL(service.url).port);
    const dev = async (method: string, pathname: string, body: unknown) => {
      const response = await fetch(service!.url + pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.ok).toBe(true);
      return response.json() as Promise<Record<string, string>>;
    };
    await dev('PUT', '/__dev/accounts/alice', { emails: ['alice@example.com'] });
    token = (await dev('POST', '/__dev/token', { sub: 'alice' })).access_token!;
    expect((await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).ok).toBe(true);
    sync = openAccountSync({
      file: ':memory:',
      apiBaseUrl: service.apiBaseUrl,
      tokens: { getAccessToken: async () => token, refreshAfterUnauthorized: async () => token },
      pushDelayMs: -1,
      // Waits long enough that a test would notice them: 20 s after the first failure, growing.
      backoff: { baseMs: 20_000, capMs: 300_000 },
      random: () => 0.9,
      timeoutMs: 5_000,
    });
    sync.scheduler.onProgress((event) => progress.push(event));
    expect(await observed(sync.scheduler.start())).toMatchObject({ status: 'ok' });
    expect(online.online).toBe(true);
  }, 30_000);

  afterAll(async () => {
    await sync?.close();
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('goes offline on the first failed request and back online on the first success, trying at once when asked', { timeout: 30_000 }, async () => {
    await service!.close();
    service = undefined;

    // The first sync that cannot reach the service says so: offline, with a wait before the next try.
    const failed = await observed(sync.scheduler.syncNow('interval'));
    expect(failed).toMatchObject({ status: 'backoff', errorKind: 'offline' });
    expect(failed.retryAt! - Date.now()).toBeGreaterThan(10_000);
    expect(online.online).toBe(false);
    expect(sync.scheduler.state).toBe('backoff');

    // Pressed during the outage: it tries (and fails) rather than report the old wait.
    progress.length = 0;
    const pressedWhileDown = await observed(sync.scheduler.syncNow('manual'));
    expect(pressedWhileDown).toMatchObject({ status: 'backoff', errorKind: 'offline' });
    expect(pressedWhileDown.error).not.toBe('waiting before pulling again');
    expect(progress.map((event) => event.phase)).toContain('pull');
    expect(online.online).toBe(false);

    await start();
    // One press, once the service is back: a real sync at once, not a report of the wait.
    progress.length = 0;
    const startedAt = Date.now();
    const pressed = await observed(sync.scheduler.syncNow('manual'));
    expect(pressed).toMatchObject({ trigger: 'manual', status: 'ok' });
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    expect(progress.map((event) => event.phase)).toEqual(expect.arrayContaining(['push', 'pull', 'done']));
    expect(online.online).toBe(true);
    expect(sync.scheduler.state).toBe('idle');
  });
});
