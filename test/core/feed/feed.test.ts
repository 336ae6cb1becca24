import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Preferences } from '../../../shared/catalog/index.ts';
import { applySettingsChange, Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { DetailsFeed, SECRET_DISCOURAGED } from '../../../electron/core/feed/DetailsFeed.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { LocalPreferences } from '../../../electron/core/feed/LocalPreferences.ts';
import { createFeedHandlers } from '../../../electron/core/handlers/feedHandlers.ts';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { ServiceAccountKey } from '../../../electron/core/feed/serviceAccountToken.ts';
import { syncCatalogDetails } from '../../../electron/core/feed/syncCatalogDetails.ts';
import { syncAfterBreachSync } from '../../../electron/core/feed/syncAfterBreachSync.ts';
import type { AuthLogger, LogFields } from '../../../electron/core/auth/log.ts';
import { startService, type RunningService } from '../../../server/app.ts';

const FIXTURE = path.resolve(import.meta.dirname, '../../../../shared/fixtures/hibp/breaches.json');
const fixtureMissing = !existsSync(FIXTURE);

let service: RunningService;
const dirs: string[] = [];
const stores: DetailsStore[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'feed-core-'));
  dirs.push(dir);
  return dir;
}
function detailsStore(): DetailsStore {
  const store = new DetailsStore(path.join(tempDir(), 'catalog-details.db'));
  stores.push(store);
  return store;
}

beforeAll(async () => {
  service = await startService({ port: 0, dataDir: tempDir(), dev: true, logLevel: 'silent', ...(fixtureMissing ? {} : { catalogFile: FIXTURE }) });
});
afterAll(async () => {
  for (const store of stores) store.close();
  await service?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function dev<T>(route: string, body: unknown = {}): Promise<T> {
  const response = await fetch(`${service.url}/__dev${route}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
const mintIdToken = async (sub: string) => (await dev<{ id_token: string }>('/id-token', { sub })).id_token;
const identityOf = (sub: string) => ({ subject: () => sub, getIdToken: () => mintIdToken(sub), idTokenAfterUnauthorized: () => mintIdToken(sub) });

/** Counts the requests a client makes, so "one round trip" is checked, not assumed. */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${String(input).split('?')[0]}`);
      return fetch(input, init);
    },
  };
}

function settingsFor(overrides: Partial<Settings> = {}) {
  let current = Settings.parse({
    serviceUrl: service.apiBaseUrl,
    issuer: service.issuer,
    syncIntervalMinutes: 60,
    notifications: true,
    startAtLogin: false,
    closeToTray: true,
    theme: 'system',
    ...overrides,
  });
  return { get: () => ({ ...current }), update: (change: SettingsChange) => (current = applySettingsChange(current, change)) };
}

describe.skipIf(fixtureMissing)('catalog details sync (real HIBP catalog over HTTP)', () => {
  it('stores every entry first, then costs one round trip with no body while unchanged', async () => {
    const store = detailsStore();
    const counting = countingFetch();
    const client = new RealtimeDatabaseClient({ url: `${service.url}/rtdb`, credential: { kind: 'none' }, fetch: counting.fetch });
    expect(await syncCatalogDetails(client, store)).toEqual({ status: 'updated', count: 834, skipped: [] });
    expect(store.get('Adobe')).toMatchObject({ title: 'Adobe', pwnCount: expect.any(Number), isVerified: true });
    expect(store.state()).toMatchObject({ url: `${service.url}/rtdb`, etag: expect.stringMatching(/^".+"$/), count: 834 });
    counting.calls.length = 0;
    expect(await syncCatalogDetails(client, store)).toEqual({ status: 'unchanged', count: 834, skipped: [] });
    expect(counting.calls).toEqual([`GET ${service.url}/rtdb/catalog/breaches.json`]);
  });

  it('takes a changed catalog whole, and leaves out (and names) entries that are not details', async () => {
    const store = detailsStore();
    const key = ServiceAccountKey.parse(await dev('/service-accounts', { scopes: ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/firebase.database'] }));
    const admin = new RealtimeDatabaseClient({ url: `${service.url}/rtdb`, credential: { kind: 'service-account', key } });
    const reader = new RealtimeDatabaseClient({ url: `${service.url}/rtdb`, credential: { kind: 'none' } });
    await syncCatalogDetails(reader, store);
    await admin.put('catalog/breaches/Broken', { title: 'Broken', pwnCount: -1 });
    try {
      const report = await syncCatalogDetails(reader, store);
      expect(report).toMatchObject({ status: 'updated', count: 834, skipped: [{ id: 'Broken', problem: expect.stringMatching(/^(domain|pwnCount|breachDate)/) }] });
      expect(store.get('Broken')).toBeUndefined();
    } finally {
      await admin.put('catalog/breaches/Broken', null);
    }
  });
});

describe('credentials', () => {
  it('service-account key, legacy secret and ID token each reach what they may', async () => {
    const key = ServiceAccountKey.parse(await dev('/service-accounts', { scopes: ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/firebase.database'] }));
    const { secret } = await dev<{ secret: string }>('/rtdb-secrets');
    const url = `${service.url}/rtdb`;
    await new RealtimeDatabaseClient({ url, credential: { kind: 'service-account', key } }).put('users/zed/preferences', { theme: 'dark' });
    expect((await new RealtimeDatabaseClient({ url, credential: { kind: 'secret', secret } }).get('users/zed/preferences')).status).toBe('ok');
    const asZed = new RealtimeDatabaseClient({ url, credential: { kind: 'id-token', getIdToken: identityOf('zed').getIdToken } });
    expect(await asZed.get('users/zed/preferences')).toMatchObject({ status: 'ok', value: { theme: 'dark' } });
    await expect(asZed.get('users/alice/preferences')).rejects.toMatchObject({ kind: 'unauthorized', status: 401, detail: expect.stringContaining('Permission denied') });
    await expect(new RealtimeDatabaseClient({ url, credential: { kind: 'none' } }).get('users/zed')).rejects.toMatchObject({ kind: 'unauthorized' });
    await expect(new RealtimeDatabaseClient({ url: 'http://127.0.0.1:9/rtdb', credential: { kind: 'none' } }).get('x')).rejects.toMatchObject({ kind: 'network' });
  });
});

describe('an ID token the database refuses', () => {
  const url = () => `${service.url}/rtdb`;

  it('is renewed once and the request sent again: a revoked or stale token does not end the feed', async () => {
    await new RealtimeDatabaseClient({ url: url(), credential: { kind: 'id-token', getIdToken: () => mintIdToken('yan') } }).put('users/yan/preferences', { theme: 'light' });
    const refused: string[] = [];
    const client = new RealtimeDatabaseClient({
      url: url(),
      credential: {
        kind: 'id-token',
        // What the app held: a token the database no longer takes.
        getIdToken: async () => 'eyJhbGciOiJub25lIn0.e30.',
        idTokenAfterUnauthorized: async (rejected) => {
          refused.push(rejected);
          return mintIdToken('yan');
        },
      },
    });
    expect(await client.get('users/yan/preferences')).toMatchObject({ status: 'ok', value: { theme: 'light' } });
    expect(refused).toEqual(['eyJhbGciOiJub25lIn0.e30.']);
  });

  it('is renewed at most once per request: a renewed token refused again is an error, never a loop', async () => {
    let renewals = 0;
    const client = new RealtimeDatabaseClient({
      url: url(),
      credential: { kind: 'id-token', getIdToken: () => mintIdToken('yan'), idTokenAfterUnauthorized: () => (renewals++, mintIdToken('yan')) },
    });
    // Rules refuse yan another person's data whatever the token: one renewal, then the refusal.
    await expect(client.get('users/alice/preferences')).rejects.toMatchObject({ kind: 'unauthorized', status: 401 });
    expect(renewals).toBe(1);
  });

  it('a sign-in that has ended answers as a sign-in needed, from the renewal itself', async () => {
    const client = new RealtimeDatabaseClient({
      url: url(),
      credential: {
        kind: 'id-token',
        getIdToken: async () => 'eyJhbGciOiJub25lIn0.e30.',
        idTokenAfterUnauthorized: () => Promise.reject(new SignInRequiredError('Sign in again to continue: the sign-in has ended.')),
      },
    });
    await expect(client.get('users/yan/preferences')).rejects.toBeInstanceOf(SignInRequiredError);
  });
});

describe('DetailsFeed', () => {
  it('shares preferences between two profiles of the same person, through their ID token', async () => {
    const one = new DetailsFeed({ settings: settingsFor(), secrets: new MemorySecretStore(), identity: identityOf('ivy'), store: detailsStore() });
    const two = new DetailsFeed({ settings: settingsFor(), secrets: new MemorySecretStore(), identity: identityOf('ivy'), store: detailsStore() });
    expect(await two.preferences()).toEqual(Preferences.parse({}));
    const chosen = Preferences.parse({ hiddenBreaches: ['Adobe'], showFlaggedBreaches: true, notifications: { newBreaches: false } });
    await one.setPreferences(chosen);
    expect(await two.preferences()).toEqual(chosen);
    const stranger = new DetailsFeed({ settings: settingsFor(), secrets: new MemorySecretStore(), identity: identityOf('mallory'), store: detailsStore() });
    expect(await stranger.preferences()).toEqual(Preferences.parse({}));
  });

  it('offline: a profile with a local copy reads it and keeps a change, written back when the database answers', async () => {
    /** The network as the feed sees it; switched off to be offline (the request never leaves). */
    const network = { up: true, requests: 0 };
    const switchable: typeof fetch = (input, init) => {
      network.requests += 1;
      return network.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed'));
    };
    const dir = tempDir();
    const laptop = new DetailsFeed({
      settings: settingsFor(),
      secrets: new MemorySecretStore(),
      identity: identityOf('olga'),
      store: detailsStore(),
      fetch: switchable,
      localPreferences: new LocalPreferences(dir),
    });
    const desktop = new DetailsFeed({
      settings: settingsFor(),
      secrets: new MemorySecretStore(),
      identity: identityOf('olga'),
      store: detailsStore(),
      localPreferences: new LocalPreferences(tempDir()),
    });

    // Never seen online, unreachable: an error, not defaults that would later overwrite real choices.
    network.up = false;
    await expect(laptop.preferences()).rejects.toMatchObject({ kind: 'network' });
    expect(laptop.knownPreferences()).toBeUndefined();

    network.up = true;
    await desktop.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe'] }));
    expect(await laptop.preferences()).toMatchObject({ hiddenBreaches: ['Adobe'] });

    network.up = false;
    const before = network.requests;
    const offlineChoice = Preferences.parse({ hiddenBreaches: ['Adobe', 'LinkedIn'], notifications: { newBreaches: false } });
    expect(await laptop.setPreferences(offlineChoice)).toEqual(offlineChoice);
    expect(network.requests).toBeGreaterThan(before); // it tried, and kept the change when it failed
    expect(await laptop.preferences()).toEqual(offlineChoice);
    expect(laptop.knownPreferences()).toEqual(offlineChoice);
    expect(await desktop.preferences()).toMatchObject({ hiddenBreaches: ['Adobe'], notifications: { newBreaches: true } });
    // The copy survives a restart of the app on this machine.
    const restarted = new DetailsFeed({
      settings: settingsFor(),
      secrets: new MemorySecretStore(),
      identity: identityOf('olga'),
      store: detailsStore(),
      fetch: switchable,
      localPreferences: new LocalPreferences(dir),
    });
    expect(await restarted.preferences()).toEqual(offlineChoice);
    expect(await restarted.writeBackPreferences()).toBe('still-offline');

    network.up = true;
    expect(await restarted.writeBackPreferences()).toBe('written');
    expect(await restarted.writeBackPreferences()).toBe('nothing-pending');
    expect(await desktop.preferences()).toEqual(offlineChoice);

    // Once written back, the database's answer wins again: a change from the other device arrives.
    await desktop.setPreferences(Preferences.parse({ hiddenBreaches: [] }));
    expect(await laptop.preferences()).toMatchObject({ hiddenBreaches: [] });
  });

  it('after a breach sync: a change kept offline is written back, a changed catalog is announced once, an unreachable feed is logged and not thrown', async () => {
    const network = { up: true };
    const switchable: typeof fetch = (input, init) => (network.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed')));
    const warnings: Array<[string, LogFields | undefined]> = [];
    const logger: AuthLogger = { debug() {}, info() {}, warn: (message, fields) => void warnings.push([message, fields]), error() {} };
    const feed = new DetailsFeed({
      settings: settingsFor(),
      secrets: new MemorySecretStore(),
      identity: identityOf('sven'),
      store: detailsStore(),
      fetch: switchable,
      localPreferences: new LocalPreferences(tempDir()),
    });
    const other = new DetailsFeed({ settings: settingsFor(), secrets: new MemorySecretStore(), identity: identityOf('sven'), store: detailsStore() });
    let updates = 0;
    const afterSync = () => syncAfterBreachSync(feed, { onUpdated: () => void (updates += 1), logger });

    await feed.preferences();
    network.up = false;
    const offlineChoice = Preferences.parse({ hiddenBreaches: ['Canva'] });
    await feed.setPreferences(offlineChoice);
    await expect(afterSync()).resolves.toBeUndefined();
    expect(updates).toBe(0);
    expect(warnings.map(([message]) => message)).toEqual(['details feed: sync failed']);
    expect(warnings[0]![1]?.error).toMatch(/could not be reached/);

    network.up = true;
    await afterSync();
    expect(updates).toBe(1); // the first catalog read is a change
    await expect.poll(() => other.preferences()).toEqual(offlineChoice);
    await afterSync();
    expect(updates).toBe(1); // unchanged: no data event
    expect(warnings).toHaveLength(1);
  });

  it('merges changes two devices made offline instead of letting the last writer win', async () => {
    const network = { up: true };
    const switchable: typeof fetch = (input, init) => (network.up ? fetch(input, init) : Promise.reject(new TypeError('fetch failed')));
    const device = () =>
      new DetailsFeed({
        settings: settingsFor(),
        secrets: new MemorySecretStore(),
        identity: identityOf('pia'),
        store: detailsStore(),
        fetch: switchable,
        localPreferences: new LocalPreferences(tempDir()),
      });
    const laptop = device();
    const desktop = device();
    await laptop.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe'] }));
    expect(await desktop.preferences()).toMatchObject({ hiddenBreaches: ['Adobe'] });

    network.up = false;
    // The laptop shows Adobe again and hides LinkedIn; the desktop hides Canva and turns notifications off.
    await laptop.setPreferences(Preferences.parse({ hiddenBreaches: ['LinkedIn'] }));
    await desktop.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe', 'Canva'], notifications: { newBreaches: false } }));
    network.up = true;
    expect(await desktop.writeBackPreferences()).toBe('written');
    expect(await laptop.writeBackPreferences()).toBe('written');

    const both = Preferences.parse({ hiddenBreaches: ['Canva', 'LinkedIn'], notifications: { newBreaches: false } });
    expect(await laptop.preferences()).toEqual(both);
    expect(await desktop.preferences()).toEqual(both);
  });

  it('a write from another device between the read and the write is merged, not overwritten (if-match, 412)', async () => {
    const other = new DetailsFeed({
      settings: settingsFor(),
      secrets: new MemorySecretStore(),
      identity: identityOf('quinn'),
      store: detailsStore(),
      localPreferences: new LocalPreferences(tempDir()),
    });
    await other.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe'] }));
    let raced = false;
    const statuses: number[] = [];
    const racing: typeof fetch = async (input, init) => {
      if (init?.method === 'PUT' && !raced) {
        raced = true;
        // The other device writes just before this one's conditional write lands.
        await other.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe', 'Dropbox'] }));
      }
      const response = await fetch(input, init);
      if (init?.method === 'PUT') statuses.push(response.status);
      return response;
    };
    const local = new LocalPreferences(tempDir());
    const laptop = new DetailsFeed({ settings: settingsFor(), secrets: new MemorySecretStore(), identity: identityOf('quinn'), store: detailsStore(), fetch: racing, localPreferences: local });
    expect(await laptop.preferences()).toMatchObject({ hiddenBreaches: ['Adobe'] });
    const result = await laptop.setPreferences(Preferences.parse({ hiddenBreaches: ['Adobe', 'MySpace'] }));
    expect(statuses).toEqual([412, 200]);
    expect(result.hiddenBreaches).toEqual(['Adobe', 'Dropbox', 'MySpace']);
    expect(await other.preferences()).toMatchObject({ hiddenBreaches: ['Adobe', 'Dropbox', 'MySpace'] });
    expect(await laptop.writeBackPreferences()).toBe('nothing-pending');
  });

  it('keeps credentials in the secret store, shows none of them, and calls a secret discouraged', async () => {
    const secrets = new MemorySecretStore();
    const feed = new DetailsFeed({ settings: settingsFor(), secrets, identity: identityOf('ivy'), store: detailsStore() });
    const handlers = createFeedHandlers({ feed, openExternal: async () => undefined });
    expect(await handlers['feed-status']()).toMatchObject({ url: `${service.url}/rtdb`, auth: 'none', hasServiceAccountKey: false, hasSecret: false });
    await expect(feed.configure({ auth: 'service-account' })).rejects.toThrow('Choose a service-account key file first.');
    await expect(feed.configure({ serviceAccountKey: '{"type":"service_account"}' })).rejects.toThrow(/key file is not usable: private_key_id/);
    await expect(feed.configure({ serviceAccountKey: 'nope' })).rejects.toThrow('not JSON');

    const keyText = JSON.stringify(await dev('/service-accounts', { scopes: ['https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/firebase.database'] }));
    const status = await handlers['feed-configure']({ auth: 'service-account', serviceAccountKey: keyText });
    expect(status).toMatchObject({ auth: 'service-account', hasServiceAccountKey: true, serviceAccountEmail: expect.stringContaining('@') });
    expect(JSON.stringify(status)).not.toContain('PRIVATE KEY');
    expect(await handlers['feed-sync']()).toMatchObject({ lastSync: { status: 'updated' } });

    const { secret } = await dev<{ secret: string }>('/rtdb-secrets');
    const withSecret = await feed.configure({ auth: 'secret', secret });
    expect(withSecret).toMatchObject({ auth: 'secret', hasSecret: true, discouraged: SECRET_DISCOURAGED });
    expect(JSON.stringify(withSecret)).not.toContain(secret);
    // Same catalog, same ETag: the copy stays as it is whatever the credential.
    expect(await handlers['feed-sync']()).toMatchObject({ lastSync: { status: 'unchanged' }, auth: 'secret' });

    const broken = await feed.configure({ url: 'http://127.0.0.1:9/rtdb', auth: 'none' });
    expect(broken.url).toBe('http://127.0.0.1:9/rtdb');
    expect(await handlers['feed-sync']()).toMatchObject({ lastError: expect.stringContaining('could not be reached') });
    expect(feed.details(['Adobe', 'Nope']).has('Nope')).toBe(false);

    // Back to the default: the saved address is cleared, not replaced by a copy of the default.
    const restored = await handlers['feed-configure']({ url: null });
    expect(restored).toMatchObject({ url: `${service.url}/rtdb`, defaultUrl: `${service.url}/rtdb`, auth: 'none' });
    expect(await handlers['feed-sync']()).toMatchObject({ lastSync: { status: expect.any(String) } });
  });
});
