// The whole core idle (issue 39): a background sync that finds nothing new is exactly one request,
// the breach list's 304. What used to follow every sync is asked only when it can have changed:
// the details feed when the list's `breach-catalog-version` moved, the addresses when the sync
// applied a new list or asked the checks. A breach added to the catalog (affecting nobody) still
// reaches the feed's copy, and an address added from elsewhere still reaches the addresses list,
// each within one sync; a service without the feed's version has its feed read as before.
// The real service over loopback (SQLite and PostgreSQL), the real core as the tray app runs it,
// signed in as the service's owner (no browser); its requests counted through the fetch it is given.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { BreachDataHeaders, OwnerSignIn } from '../../../shared/api/index.ts';
import type { RunningService } from '../../../server/app.ts';
import { startCore, type Core } from '../../../electron/core/app.ts';
import { signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { serviceStores } from '../../support/postgres.ts';

const ADDRESSES = ['owner.a@example.com', 'owner.b@example.com', 'owner.c@example.com', 'owner.d@example.com', 'owner.e@example.com'];
const ADDED_ELSEWHERE = 'owner.phone@example.com';
const NEW_BREACH = { id: 'IdleFreshLeak', domain: 'idlefreshleak.example', breachDate: '2026-10-01', addedDate: '2026-11-20T10:00Z', dataClasses: ['Email addresses'], isSensitive: false };
const FEED_PATH = '/rtdb/catalog/breaches.json';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface IdleApp {
  core: Core;
  service: RunningService;
  /** Syncs now and waits until what follows it is answered; the requests of both, sorted, as "METHOD /path status". */
  syncOnce(): Promise<string[]>;
  close(): Promise<void>;
}

/** The owner's service with a typical person's addresses (demo exposures), and the core signed in to it, its first sync settled. */
async function openIdleApp(serviceOptions: Record<string, unknown>, options: { withoutCatalogVersion?: boolean } = {}): Promise<IdleApp> {
  const dataDir = tempDir('idle-app-service-', dirs);
  const service = await startAgainst(undefined, undefined, { dataDir, owner: true, ...serviceOptions });
  await signIn(service, OwnerSignIn.subject, ADDRESSES);
  const secret = readFileSync(path.join(dataDir, OwnerSignIn.secretFile), 'utf8').trim();
  const wire: string[] = [];
  let inFlight = 0;
  const issuer = service.issuer;
  const core = await startCore({
    dataDir: tempDir('idle-app-core-', dirs),
    keychain: false,
    config: { issuer, apiBaseUrl: service.apiBaseUrl },
    host: {
      openExternal: () => Promise.reject(new Error('the owner signs in without a browser')),
      notify: () => {},
      setTrayState: () => {},
      localService: { apply: async () => {}, ownerSecret: (asked) => (asked === issuer ? secret : undefined) },
    },
    fetch: async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      inFlight++;
      try {
        const response = await fetch(input, init);
        if (url.origin === new URL(service.url).origin && !url.pathname.startsWith('/oidc'))
          wire.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname.replace('/api/v1', '')} ${response.status}`);
        if (!options.withoutCatalogVersion) return response;
        // A service from before the feed's version: the same answers without it.
        const headers = new Headers(response.headers);
        headers.delete(BreachDataHeaders.catalogVersion);
        return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
      } finally {
        inFlight--;
      }
    },
  });
  /**
   * Until nothing is on its way and nothing new was sent for a while: what follows a sync is
   * started without being awaited (the addresses, the details feed), a few turns after it.
   */
  const settle = async () => {
    for (let quiet = 0, seen = -1; quiet < 5;) {
      await sleep(40);
      quiet = inFlight === 0 && wire.length === seen ? quiet + 1 : 0;
      seen = wire.length;
    }
  };
  await core.router.invoke('auth-sign-in', {});
  await core.router.invoke('sync-now', {});
  await settle();
  return {
    core,
    service,
    syncOnce: async () => {
      wire.length = 0;
      const status = await core.router.invoke('sync-now', {});
      expect(status.lastError).toBeUndefined();
      await settle();
      return [...wire].sort();
    },
    close: async () => {
      await core.close();
      await service.close();
    },
  };
}

for (const store of await serviceStores()) {
  describe.skipIf(!store.available)(`the app idle (${store.name})`, () => {
    it('syncs in one request when nothing is new; a catalog change and an address added elsewhere are each picked up within one sync', { timeout: 90_000 }, async () => {
      const app = await openIdleApp(await store.serviceOptions());
      const { core, service } = app;
      try {
        expect((await core.router.invoke('addresses-get', {})).addresses.map((address) => address.email)).toEqual(expect.arrayContaining(ADDRESSES));
        const countBefore = (await core.router.invoke('feed-status', {})).lastSync?.count;
        expect(countBefore).toBeGreaterThan(0);

        // Nothing new: the list's 304, and nothing after it.
        expect(await app.syncOnce()).toEqual(['GET /user/breaches 304']);
        expect(await app.syncOnce()).toEqual(['GET /user/breaches 304']);

        // A breach added to the catalog that nobody is in: the list stands still, the feed's version moved.
        const added = await fetch(`${service.url}/__dev/breaches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(NEW_BREACH) });
        expect(added.status).toBe(201);
        expect(await app.syncOnce()).toEqual(['GET /rtdb/catalog/breaches.json 200', 'GET /user/breaches 304']);
        expect((await core.router.invoke('feed-status', {})).lastSync?.count).toBe(countBefore! + 1);
        expect(await app.syncOnce()).toEqual(['GET /user/breaches 304']);

        // An address added from another device (the owner's service verifies it at once): its checks move, so the addresses are listed again.
        const token = (await (
          await fetch(`${service.url}/__dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub: OwnerSignIn.subject }) })
        ).json()) as { access_token: string };
        const post = await fetch(`${service.apiBaseUrl}/user/emails`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
          body: JSON.stringify({ email: ADDED_ELSEWHERE }),
        });
        expect(post.status).toBe(201);
        const afterAdd = await app.syncOnce();
        expect(afterAdd).toContain('GET /user/emails 200');
        expect(afterAdd).toContain('GET /user/checks 200');
        expect((await core.router.invoke('addresses-get', {})).addresses.map((address) => address.email)).toContain(ADDED_ELSEWHERE);
        expect(await app.syncOnce()).toEqual(['GET /user/breaches 304']);
      } finally {
        await app.close();
      }
    });

    it('reads the details feed after every sync, as before, from a service that names no version of it', { timeout: 90_000 }, async () => {
      const app = await openIdleApp(await store.serviceOptions(), { withoutCatalogVersion: true });
      try {
        expect(await app.syncOnce()).toEqual([`GET ${FEED_PATH} 304`, 'GET /user/breaches 304']);
        expect(await app.syncOnce()).toEqual([`GET ${FEED_PATH} 304`, 'GET /user/breaches 304']);
      } finally {
        await app.close();
      }
    });
  });
}
