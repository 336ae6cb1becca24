// "No private data without credentials", walked from the router's own table: every mount ×
// route × method × header × query, without credentials, after private data was seeded. Nothing
// of a private location (its value, its ETag, a person's email) may appear in any answer's
// body or headers, and the service must answer every request without a 5xx.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { owns } from '../../../server/http/mounts.ts';
import { serviceStores } from '../../support/postgres.ts';
import { routesOf, sendRaw, walkRequests } from '../../support/routeWalk.ts';

const STORES = await serviceStores();
const ALICE_MARKER = 'alice-walk-private-7f3a';
const BOB_EMAIL = 'bob-walk-private@example.com';

describe.each(STORES)('the route walk on $name', (store) => {
  let service: RunningService;
  let dataDir: string;
  let port: number;
  const secrets: string[] = [];

  const dev = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${service.url}/__dev${route}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${await response.text()}`);
    return (response.status === 204 ? undefined : response.json()) as Promise<T>;
  };

  beforeAll(async () => {
    if (!store.available) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-walk-'));
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(await store.serviceOptions()) });
    port = Number(new URL(service.url).port);
    const breachIds = (await service.store.listBreaches()).map((breach) => breach.id);
    // bob: an account, exposures and a resolution; alice: a private node in the database.
    await dev('PUT', '/accounts/bob', { emails: [BOB_EMAIL] });
    await dev('PUT', '/exposures', { email: BOB_EMAIL, breachIds: breachIds.slice(0, 3) });
    const bob = (await dev<{ access_token: string }>('POST', '/token', { sub: 'bob', email: BOB_EMAIL })).access_token;
    await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${bob}` } });
    const resolved = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bob}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ breachId: breachIds[0], dataClasses: ['Email addresses'], resolved: true }]),
    });
    expect(resolved.status).toBe(204);
    const alice = (await dev<{ id_token: string }>('POST', '/id-token', { sub: 'alice', email: 'alice@example.com' })).id_token;
    const put = await fetch(`${service.url}/rtdb/users/alice/preferences.json?auth=${alice}`, { method: 'PUT', body: JSON.stringify({ note: ALICE_MARKER, theme: 'dark' }) });
    expect(put.status).toBe(200);
    // The ETags of private locations are derived from their data: they must not leak either.
    for (const location of ['', 'users', 'users/alice', 'users/alice/preferences']) {
      const read = await fetch(`${service.url}/rtdb/${location}.json?auth=${alice}`, { headers: { 'x-firebase-etag': 'true' } });
      if (read.status === 200) secrets.push(read.headers.get('etag')!);
    }
    expect(secrets.length).toBeGreaterThanOrEqual(2);
  });
  afterAll(async () => {
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (!store.available) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  it('has routes for every mount, each inside its mount', () => {
    expect(service.mounts.map((entry) => entry.name)).toEqual(expect.arrayContaining(['api-v1', 'firefox-v1', 'search', 'rtdb', 'identity', 'graph', 'dev', 'root', 'logos', 'openapi']));
    for (const entry of service.mounts) {
      expect(routesOf(entry).length, entry.name).toBeGreaterThan(0);
      for (const route of routesOf(entry)) {
        const pathname = route.path.split('?')[0]!;
        expect(owns(entry, pathname), `${entry.name}: ${route.path}`).toBe(true);
        // The first mount that owns a path is the one that answers it.
        expect(service.mounts.find((candidate) => owns(candidate, pathname))?.name, route.path).toBe(entry.name);
      }
    }
  });

  it('shows nothing of a private location to any request without credentials', { timeout: 240_000 }, async () => {
    const markers = [ALICE_MARKER, BOB_EMAIL, ...secrets];
    let sent = 0;
    const failures: string[] = [];
    for (const walk of walkRequests(service.mounts, { account: service.accountId })) {
      const answer = await sendRaw(port, `127.0.0.1:${port}`, walk);
      sent++;
      const seen = `${JSON.stringify(answer.headers)}\n${answer.body}`;
      const leaked = markers.filter((marker) => seen.includes(marker));
      if (leaked.length > 0) failures.push(`${walk.method} ${walk.path} ${JSON.stringify(walk.headers)} → ${answer.status} shows ${leaked.join(', ')}`);
      if (answer.status >= 500) failures.push(`${walk.method} ${walk.path} ${JSON.stringify(walk.headers)} → ${answer.status}: ${answer.body.slice(0, 200)}`);
    }
    expect(failures.slice(0, 20)).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    // The data is still there and still private: the walk changed nothing of it.
    const alice = (await dev<{ id_token: string }>('POST', '/id-token', { sub: 'alice', email: 'alice@example.com' })).id_token;
    expect(await (await fetch(`${service.url}/rtdb/users/alice/preferences.json?auth=${alice}`)).json()).toEqual({ note: ALICE_MARKER, theme: 'dark' });
  });
});
