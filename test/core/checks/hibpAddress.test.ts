// The Have I Been Pwned address and its problems, from the core's side. The address is a choice
// in Settings (the advanced part of the HIBP choice), kept in the settings and handed to the local
// service as BREACH_SERVICE_HIBP_URL; a plain-http address off this computer is refused (the key
// travels with every request). And what goes wrong with HIBP reaches the app as one sentence a
// person can act on: a base that is not HIBP's API v3 ("did you mean …/api/v3?"), a refused key,
// an unreachable host, a rate limit. Against the real service and the HIBP stand-in.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applySettingsChange, type Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import { BreachSourceSet } from '../../../shared/ipc/checks.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { BreachSource } from '../../../electron/core/checks/BreachSource.ts';
import { readChecksView } from '../../../electron/core/db/breachDataQueries.ts';
import type { LocalServiceLaunch } from '../../../electron/core/host.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import type { RunningService } from '../../../server/app.ts';
import { serviceLaunchCommand } from '../../../tools/referenceService.ts';
import { KEY, OTHER_KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { HibpStandIn } from '../../support/hibpStandIn.ts';
import { DEFAULT_SETTINGS } from '../../support/settings.ts';

const LOCAL = { serviceUrl: 'http://127.0.0.1:7070/api/v1', issuer: 'http://127.0.0.1:7070/oidc' };
const dirs: string[] = [];
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const part of open.splice(0).reverse()) await part.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the Have I Been Pwned address in Settings', () => {
  function setup() {
    let settings: Settings = { ...DEFAULT_SETTINGS };
    const launches: LocalServiceLaunch[] = [];
    const source = new BreachSource({
      settings: { get: () => settings },
      applySettings: (change: SettingsChange) => (settings = applySettingsChange(settings, change)),
      secrets: new MemorySecretStore(),
      sessions: { get: () => undefined },
      localService: { apply: async (launch) => void launches.push(launch) },
      localEndpoints: LOCAL,
      onDataCleared: () => {},
    });
    return { source, launches, settings: () => settings };
  }

  it('is kept, shown, and handed to the local service as BREACH_SERVICE_HIBP_URL; empty goes back to HIBP', async () => {
    const { source, launches, settings } = setup();
    const view = await source.set({ choice: 'hibp', apiKey: KEY, hibpUrl: 'https://proxy.example/api/v3' });
    expect(view.hibpUrl).toBe('https://proxy.example/api/v3');
    expect(settings().hibpUrl).toBe('https://proxy.example/api/v3');
    expect(launches.at(-1)).toEqual({ source: 'hibp', apiKey: KEY, hibpUrl: 'https://proxy.example/api/v3' });
    const { env, args } = serviceLaunchCommand({ port: 7070, dataDir: '/tmp/x', launch: launches.at(-1)! }, {});
    expect(env.BREACH_SERVICE_HIBP_URL).toBe('https://proxy.example/api/v3');
    expect(args.join(' ')).not.toContain('proxy.example');

    // The choice again without naming an address keeps it; null forgets it.
    await source.set({ choice: 'hibp' });
    expect(launches.at(-1)).toMatchObject({ hibpUrl: 'https://proxy.example/api/v3' });
    const back = await source.set({ choice: 'hibp', hibpUrl: null });
    expect(back.hibpUrl).toBeUndefined();
    expect(launches.at(-1)).toEqual({ source: 'hibp', apiKey: KEY });
  });

  it('refuses plain http off this computer, and what is not an address, saying what to enter', async () => {
    const insecure = BreachSourceSet.safeParse({ choice: 'hibp', hibpUrl: 'http://proxy.example/api/v3' });
    expect(insecure.success).toBe(false);
    expect(insecure.error?.issues[0]).toMatchObject({ path: ['hibpUrl'] });
    expect(insecure.error?.issues[0]?.message).toMatch(/https:\/\/.*plain http only on this computer/);
    expect(BreachSourceSet.safeParse({ choice: 'hibp', hibpUrl: 'haveibeenpwned' }).error?.issues[0]?.message).toMatch(/full address/);
    expect(BreachSourceSet.safeParse({ choice: 'hibp', hibpUrl: 'http://127.0.0.1:8080/api/v3' }).success).toBe(true);
  });
});

describe('what goes wrong with Have I Been Pwned, as the app reads it', { timeout: 60_000 }, () => {
  /** The service with a key against `hibpUrl`, a person signed in, and the core's sync of their checks; the problem it reads. */
  async function problemSeen(hibpUrl: string, key = KEY): Promise<{ code: string; detail: string } | null | undefined> {
    const service: RunningService = await startAgainst(undefined, undefined, { dataDir: tempDir('hibp-address-', dirs), hibpApiKey: key, hibpUrl });
    open.push(service);
    const token = await signIn(service, 'alice', ['alice@example.com']);
    const sync: AccountSync = openAccountSync({
      file: ':memory:',
      apiBaseUrl: service.apiBaseUrl,
      tokens: { getAccessToken: async () => token, refreshAfterUnauthorized: async () => token },
      pushDelayMs: -1,
    });
    open.push({ close: () => sync.close() });
    await sync.scheduler.syncNow('manual');
    return readChecksView(sync.database.db).checks?.problem;
  }

  it('a base that answers 404 on subscription/status: "does not answer like … API v3 — did you mean …/api/v3?"', async () => {
    const hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
    open.push(hibp);
    const base = hibp.url.replace(/\/api\/v3$/, '');
    const problem = await problemSeen(base);
    expect(problem).toEqual({ code: 'wrong-address', detail: `This address (${base}) does not answer like Have I Been Pwned's API v3 — did you mean ${base}/api/v3?` });
    expect(hibp.requests.map((request) => [request.path, request.status])).toContainEqual(['/subscription/status', 404]);
  });

  it('a refused key, an unreachable host and a rate limit each read as a sentence naming what happened', async () => {
    const hibp = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10 } } });
    open.push(hibp);
    expect(await problemSeen(hibp.url, OTHER_KEY)).toMatchObject({ code: 'key-refused', detail: expect.stringMatching(/^Have I Been Pwned refused the API key .*\(HTTP 401\)/) });
    expect(await problemSeen('http://127.0.0.1:9/api/v3')).toMatchObject({
      code: 'source-unreachable',
      detail: expect.stringMatching(/^Have I Been Pwned could not be reached .*cannot reach 127\.0\.0\.1:9/),
    });
    hibp.storm(() => 3600);
    expect(await problemSeen(hibp.url)).toMatchObject({
      code: 'rate-limited',
      detail: expect.stringMatching(/^Have I Been Pwned asked this service to wait until \d{4}-\d\d-\d\dT[\d:.]+Z \(HTTP 429\)/),
    });
  });
});
