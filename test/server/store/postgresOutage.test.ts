// The database server killed while the service is under load: requests get 503 problem+json
// (with Retry-After), the process keeps running, it recovers once PostgreSQL is back, and every
// resolution it acknowledged (204) is still there.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { eventually } from '../../support/waitFor.ts';

const postgres = usePrivatePostgres();
const CLASSES = Array.from({ length: 30 }, (_, i) => `Class ${String(i).padStart(2, '0')}`);
const BREACHES = Array.from({ length: 8 }, (_, i) => `Outage${i}`);

let service: RunningService | undefined;
let dataDir: string | undefined;
afterAll(async () => {
  await service?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('PostgreSQL going away mid-load', () => {
  it('answers 503 problem+json while it is away, recovers when it is back, and loses no acknowledged resolution', async (ctx) => {
    const server = postgres.server();
    if (!server) return ctx.skip('PostgreSQL could not start (see the message above)');
    dataDir = mkdtempSync(path.join(tmpdir(), 'bm-pg-outage-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', databaseUrl: await server.createDatabase() });
    const origin = service.url;
    const dev = async (method: string, route: string, body: unknown) => {
      const response = await fetch(origin + route, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return response.json() as Promise<Record<string, unknown>>;
    };
    for (const id of BREACHES)
      await dev('POST', '/__dev/breaches', { id, domain: `${id.toLowerCase()}.example`, breachDate: '2020-01-01', addedDate: '2020-02-01T10:00:00Z', dataClasses: CLASSES, isSensitive: false });
    await dev('PUT', '/__dev/accounts/outage', { emails: ['outage@example.com'] });
    await dev('PUT', '/__dev/exposures', { email: 'outage@example.com', breachIds: BREACHES });
    const { access_token: token } = await dev('POST', '/__dev/token', { sub: 'outage', email: 'outage@example.com' });
    const auth = { authorization: `Bearer ${token as string}` };
    expect((await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: auth })).status).toBe(201);

    const keys = BREACHES.flatMap((breachId) => CLASSES.map((dataClass) => ({ breachId, dataClass })));
    const acknowledged: { breachId: string; dataClass: string }[] = [];
    const unavailable: Response[] = [];
    const otherStatuses: string[] = [];
    let next = 0;
    let stop = false;
    // Four clients sending one resolution each at a time until told to stop, going round the
    // keys again if need be (resolving again is acknowledged like the first time).
    const worker = async () => {
      while (!stop) {
        const key = keys[next++ % keys.length]!;
        const response = await fetch(`${service!.apiBaseUrl}/user/breaches/resolutions`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify([{ breachId: key.breachId, dataClasses: [key.dataClass], resolved: true }]),
        });
        if (response.status === 204) acknowledged.push(key);
        else if (response.status === 503) unavailable.push(response);
        else otherStatuses.push(`${response.status} ${await response.clone().text()}`);
        await response.arrayBuffer();
      }
    };
    const workers = Array.from({ length: 4 }, worker);

    await eventually('the service acknowledged 20 resolutions before the kill', () => acknowledged.length >= 20, 20_000);
    await server.kill();
    await eventually('requests were answered 503 while PostgreSQL was down', () => unavailable.length >= 1, 20_000);
    const read = await fetch(`${service.apiBaseUrl}/user/breaches`, { headers: auth });
    expect(read.status).toBe(503);
    expect(read.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await read.json()) as { detail: string }).detail).toMatch(/database is unavailable/);

    await server.restart();
    await eventually('the service answers 200 again once PostgreSQL is back', async () => (await fetch(`${service!.apiBaseUrl}/user/breaches`, { headers: auth })).status === 200, 30_000);
    const before = acknowledged.length;
    await eventually('resolutions are acknowledged again after the restart', () => acknowledged.length >= before + 10, 20_000);
    stop = true;
    await Promise.all(workers);

    expect(otherStatuses, 'only 204 and 503 while the database came and went').toEqual([]);
    const list = await fetch(`${service.apiBaseUrl}/user/breaches`, { headers: auth });
    expect(list.status).toBe(200);
    const items = (await list.json()) as { breach: { id: string }; breachedAccounts: { resolvedDataClasses: Record<string, unknown> }[] }[];
    const resolved = new Set(items.flatMap((item) => Object.keys(item.breachedAccounts[0]?.resolvedDataClasses ?? {}).map((dataClass) => `${item.breach.id}/${dataClass}`)));
    const lost = acknowledged.filter((key) => !resolved.has(`${key.breachId}/${key.dataClass}`));
    expect(lost, 'acknowledged resolutions missing after the restart').toEqual([]);
  }, 120_000);
});
