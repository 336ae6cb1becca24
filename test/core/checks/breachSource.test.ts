// The person's breach-data choice from the core's side: the key kept in the secret store and
// never returned (only its last four characters), handed to the local service through its
// environment and never its command line, demo exposures cleared on the switch to real data,
// and the follow-up that keeps "Checking 2 of your addresses…" moving.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UNKNOWN_CHECKS, type ChecksView, type Settings, type SettingsChange } from '../../../shared/ipc/index.ts';
import { applySettingsChange } from '../../../shared/ipc/views.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { BreachSource, launchFor, savedChoice } from '../../../electron/core/checks/BreachSource.ts';
import { ChecksPublisher, FOLLOW_UP_MAX_MS, FOLLOW_UP_MIN_MS } from '../../../electron/core/checks/ChecksPublisher.ts';
import { HIBP_API_KEY_SECRET } from '../../../electron/core/checks/hibpKey.ts';
import { readChecksView, recordBreachDataHeaders } from '../../../electron/core/db/breachDataQueries.ts';
import { listBreaches } from '../../../electron/core/db/breachQueries.ts';
import { migrate, schemaVersion } from '../../../electron/core/db/migrate.ts';
import type { LocalServiceLaunch } from '../../../electron/core/host.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { HIBP_KEY_VARIABLE, serviceLaunchCommand } from '../../../tools/referenceService.ts';
import { DEFAULT_SETTINGS } from '../../support/settings.ts';
import { FakeTimers } from '../helpers/fakeTimers.ts';
import { FROZEN_NOW, item, snapshot } from '../helpers/fixtures.ts';

const KEY = '0123456789abcdef0123456789abcdef';
const LOCAL = { serviceUrl: 'http://127.0.0.1:7070/api/v1', issuer: 'http://127.0.0.1:7070/oidc' };

const syncs: AccountSync[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const sync of syncs.splice(0)) await sync.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setup(options: { persistent?: boolean; restart?: (launch: LocalServiceLaunch) => Promise<void>; session?: boolean } = {}) {
  let settings: Settings = { ...DEFAULT_SETTINGS };
  const applied: SettingsChange[] = [];
  const secrets = new MemorySecretStore();
  if (options.persistent) Object.defineProperty(secrets, 'persistent', { value: true });
  const launches: LocalServiceLaunch[] = [];
  const sync = options.session
    ? openAccountSync({ file: ':memory:', apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: async () => 't', refreshAfterUnauthorized: async () => 't' }, pushDelayMs: -1 })
    : undefined;
  if (sync) syncs.push(sync);
  const syncNows: string[] = [];
  if (sync) sync.scheduler.syncNow = async (trigger = 'manual') => (syncNows.push(trigger), undefined as never);
  let cleared = 0;
  const source = new BreachSource({
    settings: { get: () => settings },
    applySettings: (change) => {
      applied.push(change);
      return (settings = applySettingsChange(settings, change));
    },
    secrets,
    sessions: { get: () => (sync ? ({ db: sync.database.db, sync } as never) : undefined) },
    localService: options.restart
      ? {
          apply: async (launch) => {
            launches.push(launch);
            await options.restart!(launch);
          },
        }
      : undefined,
    localEndpoints: LOCAL,
    onDataCleared: () => cleared++,
    now: () => FROZEN_NOW,
  });
  return { source, secrets, launches, applied, sync, syncNows, cleared: () => cleared, settings: () => settings };
}

describe('BreachSource', () => {
  it('Have I Been Pwned without a key is refused at the field, and nothing changes', async () => {
    const { source, applied, launches } = setup({ restart: async () => {} });
    await expect(source.set({ choice: 'hibp' })).rejects.toMatchObject({ code: 'invalid-arguments', issues: [{ path: 'apiKey' }] });
    expect(applied).toEqual([]);
    expect(launches).toEqual([]);
  });

  it('keeps the key in the secret store, returns only its last four characters, and restarts the local service with it', async () => {
    const { source, secrets, launches, settings, syncNows } = setup({ restart: async () => {}, session: true });
    const view = await source.set({ choice: 'hibp', apiKey: KEY });
    expect(view).toEqual({ choice: 'hibp', hasHibpKey: true, keyHint: 'cdef', keyRemembered: false, localService: 'restarted', demoCleared: 0 });
    expect(JSON.stringify(view)).not.toContain(KEY.slice(0, 28));
    expect(await secrets.get(HIBP_API_KEY_SECRET)).toBe(KEY);
    expect(launches).toEqual([{ source: 'hibp', apiKey: KEY }]);
    // The local service's choices sign in at the app's own default service.
    expect(settings()).toMatchObject({ breachSource: 'hibp', ...LOCAL });
    expect(syncNows).toEqual(['manual']);
    // A later switch keeps the kept key without asking again; forgetting it removes it.
    await source.set({ choice: 'demo' });
    expect(launches.at(-1)).toEqual({ source: 'demo' });
    expect(await secrets.get(HIBP_API_KEY_SECRET)).toBe(KEY);
    await source.set({ choice: 'hibp' });
    expect(launches.at(-1)).toEqual({ source: 'hibp', apiKey: KEY });
    await source.set({ choice: 'service', forgetKey: true });
    expect(await secrets.get(HIBP_API_KEY_SECRET)).toBeUndefined();
    expect(launches).toHaveLength(3);
  });

  it('switching from demo to real removes the invented breaches at once and says how many', async () => {
    const { source, sync, cleared } = setup({ restart: async () => {}, session: true });
    const db = sync!.database.db;
    db.transaction(() => recordBreachDataHeaders(db, { source: 'demo', pending: 0 }, FROZEN_NOW.toISOString())).immediate();
    snapshot(db, [item({ id: 'InventedOne', accounts: { 'a@example.com': [] } }), item({ id: 'InventedTwo', accounts: { 'a@example.com': [] } })]);
    const view = await source.set({ choice: 'hibp', apiKey: KEY });
    expect(view.demoCleared).toBe(2);
    expect(listBreaches(db)).toEqual([]);
    expect(readChecksView(db)).toMatchObject({ source: 'unknown', demoClearedAt: FROZEN_NOW.toISOString() });
    expect(cleared()).toBe(1);
    // Real data already: nothing to remove the next time.
    expect((await source.set({ choice: 'service' })).demoCleared).toBe(0);
  });

  it('a local service that cannot be restarted is said in a sentence; the choice is still saved', async () => {
    const { source, settings } = setup({
      restart: async () => {
        throw new Error('another program holds port 6060');
      },
    });
    const view = await source.set({ choice: 'demo' });
    expect(view.problem).toBe('The local service could not be restarted: another program holds port 6060');
    expect(settings().breachSource).toBe('demo');
  });

  it('without a host that restarts it, the local service follows at the next start', async () => {
    const { source } = setup();
    expect((await source.set({ choice: 'hibp', apiKey: KEY })).localService).toBe('next-start');
  });

  it('the launch for each saved choice: demo by default, the key for hibp, none when the key is gone', async () => {
    const secrets = new MemorySecretStore();
    expect(await launchFor(undefined, secrets)).toEqual({ source: 'demo' });
    expect(await launchFor('demo', secrets)).toEqual({ source: 'demo' });
    expect(await launchFor('service', secrets)).toBeUndefined();
    // Asked for real data and the key is not kept (a session-only store): never demo instead.
    expect(await launchFor('hibp', secrets)).toEqual({ source: 'none' });
    await secrets.set(HIBP_API_KEY_SECRET, KEY);
    expect(await launchFor('hibp', secrets)).toEqual({ source: 'hibp', apiKey: KEY });
  });

  it('npm start reads the saved choice from settings.json; a damaged file is no choice', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bm-choice-'));
    dirs.push(dir);
    expect(savedChoice(dir)).toBeUndefined();
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ breachSource: 'hibp' }));
    expect(savedChoice(dir)).toBe('hibp');
    writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ breachSource: 'real please' }));
    expect(savedChoice(dir)).toBeUndefined();
    writeFileSync(path.join(dir, 'settings.json'), '{not json');
    expect(savedChoice(dir)).toBeUndefined();
  });
});

describe('the local service command', () => {
  const base = { port: 6060, dataDir: '/data/service' };
  const env = { PATH: '/bin', BREACH_SERVICE_DEV: '1', BREACH_SERVICE_DEMO: '1', [HIBP_KEY_VARIABLE]: 'inherited-key-from-the-shell' };

  it('the key goes in the environment only, without --dev (nothing invented) and without an inherited BREACH_SERVICE_DEV', () => {
    const command = serviceLaunchCommand({ ...base, launch: { source: 'hibp', apiKey: KEY } }, env);
    expect(command.args).not.toContain('--dev');
    expect(command.args.join(' ')).not.toContain(KEY);
    expect(command.args.some((arg) => arg.startsWith('--hibp'))).toBe(false);
    expect(command.env[HIBP_KEY_VARIABLE]).toBe(KEY);
    expect(command.env.BREACH_SERVICE_DEV).toBeUndefined();
    expect(command.env.BREACH_SERVICE_DEMO).toBeUndefined();
    expect(command.env.PATH).toBe('/bin');
  });

  it('demo data is --dev, and no key is passed on (not even one inherited from the shell)', () => {
    const command = serviceLaunchCommand({ ...base, launch: { source: 'demo' } }, env);
    expect(command.args).toEqual(['server/main.ts', '--port', '6060', '--data', '/data/service', '--dev']);
    expect(command.env[HIBP_KEY_VARIABLE]).toBeUndefined();
    expect(serviceLaunchCommand(base, env).args).toContain('--dev');
  });

  it('none: neither --dev nor a key, so the service says it has no source', () => {
    const command = serviceLaunchCommand({ ...base, launch: { source: 'none' } }, env);
    expect(command.args).not.toContain('--dev');
    expect(command.env[HIBP_KEY_VARIABLE]).toBeUndefined();
    expect(command.env.BREACH_SERVICE_DEV).toBeUndefined();
    expect(command.env.BREACH_SERVICE_DEMO).toBeUndefined();
  });
});

describe('ChecksPublisher', () => {
  const pendingView = (nextCheckAt: string | null, pending = 2): ChecksView => ({
    ...UNKNOWN_CHECKS,
    source: 'hibp',
    pending,
    checks: {
      source: 'hibp',
      attribution: 'Have I Been Pwned',
      addresses: [],
      queue: { requestsPerMinute: 10, waiting: pending, nextCheckAt },
      stealerLogs: { available: false, entries: [] },
      problem: null,
    },
    checksServed: 'yes',
  });

  it('while addresses are pending, asks for a sync at the queue’s estimate, within bounds; not otherwise', () => {
    const now = Date.parse('2026-11-26T09:00:00Z');
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T09:03:00Z'), now)).toBe(FOLLOW_UP_MAX_MS);
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T09:00:30Z'), now)).toBe(30_000);
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T08:59:00Z'), now)).toBe(FOLLOW_UP_MIN_MS);
    expect(ChecksPublisher.followUpDelay(pendingView(null), now)).toBe(FOLLOW_UP_MIN_MS);
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T09:03:00Z', 0), now)).toBeUndefined();
    expect(ChecksPublisher.followUpDelay(UNKNOWN_CHECKS, now)).toBeUndefined();
    const stuck = pendingView(null);
    stuck.checks!.problem = { code: 'key-refused', detail: 'refused' };
    // A refused key will not get better by asking sooner: the interval does.
    expect(ChecksPublisher.followUpDelay(stuck, now)).toBeUndefined();
  });

  it('a list taken while addresses were pending that the checks (read after it) say are done is looked at again soon', () => {
    const now = Date.parse('2026-11-26T09:00:00Z');
    const done = pendingView('2026-12-03T09:00:00Z', 0);
    // The list left out two addresses; a moment later the checks say both were checked.
    expect(ChecksPublisher.followUpDelay(done, now, 2)).toBe(FOLLOW_UP_MIN_MS);
    // The list caught up (or never left anything out): nothing to look for.
    expect(ChecksPublisher.followUpDelay(done, now, 0)).toBeUndefined();
    expect(ChecksPublisher.followUpDelay(done, now, undefined)).toBeUndefined();
    // Still pending: the queue's estimate as before, whatever the list left out.
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T09:00:30Z', 1), now, 2)).toBe(FOLLOW_UP_MIN_MS);
    expect(ChecksPublisher.followUpDelay(pendingView('2026-11-26T09:00:30Z', 2), now, 2)).toBe(30_000);
    // Without a source, or with a problem, asking sooner brings nothing.
    const stuck = pendingView(null, 0);
    stuck.checks!.problem = { code: 'key-refused', detail: 'refused' };
    expect(ChecksPublisher.followUpDelay(stuck, now, 2)).toBeUndefined();
  });

  it('with every address checked but stealer-log searches still to run, looks again when the queue should have run them', () => {
    const now = Date.parse('2026-11-26T09:00:00Z');
    const stealerView = (pending: number | undefined, waiting: number, requestsPerMinute: number | null = 10): ChecksView => {
      const view = pendingView('2026-12-03T09:00:00Z', 0);
      view.checks!.queue = { requestsPerMinute, waiting, nextCheckAt: '2026-12-03T09:00:00Z' };
      view.checks!.stealerLogs = { available: true, ...(pending === undefined ? {} : { pending }), entries: [] };
      return view;
    };
    // One search queued at ten a minute (6 s): the lower bound.
    expect(ChecksPublisher.followUpDelay(stealerView(1, 1), now, 0)).toBe(FOLLOW_UP_MIN_MS);
    // Two: 12 s.
    expect(ChecksPublisher.followUpDelay(stealerView(2, 2), now, 0)).toBe(12_000);
    // Fifteen queued at ten a minute: a minute and a half.
    expect(ChecksPublisher.followUpDelay(stealerView(2, 15), now, 0)).toBe(90_000);
    // A long queue: no later than the upper bound.
    expect(ChecksPublisher.followUpDelay(stealerView(2, 500), now, 0)).toBe(FOLLOW_UP_MAX_MS);
    // Without the key's rate, the lower bound.
    expect(ChecksPublisher.followUpDelay(stealerView(1, 15, null), now, 0)).toBe(FOLLOW_UP_MIN_MS);
    // All searched, or a service that does not say: nothing to look for.
    expect(ChecksPublisher.followUpDelay(stealerView(0, 15), now, 0)).toBeUndefined();
    expect(ChecksPublisher.followUpDelay(stealerView(undefined, 15), now, 0)).toBeUndefined();
  });

  it('emits only when the view changed, and one follow-up at a time', async () => {
    const timers = new FakeTimers(Date.parse('2026-11-26T09:00:00Z'));
    let view: ChecksView = pendingView('2026-11-26T09:00:30Z');
    const emitted: ChecksView[] = [];
    let syncs = 0;
    let reads = 0;
    // Each read is numbered (as readChecksView does): a new number alone is not a change.
    const publisher = new ChecksPublisher({ read: () => ({ ...view, seq: ++reads }), emit: (next) => emitted.push(next), syncSoon: () => syncs++, timers, now: () => timers.now });
    publisher.publish();
    publisher.publish();
    expect(emitted).toHaveLength(1);
    expect(timers.armed).toEqual([30_000]);
    await timers.advance(30_000);
    expect(syncs).toBe(1);
    view = { ...view, pending: 0 };
    publisher.publish();
    expect(emitted).toHaveLength(2);
    expect(timers.armed).toEqual([]);
    publisher.stop();
  });
});

describe('migration 50', () => {
  it('adds the one breach-data row to an existing account database, as unknown', () => {
    const db = new Database(':memory:');
    try {
      migrate(db, { target: 40, now: () => FROZEN_NOW });
      migrate(db, { target: 50, now: () => FROZEN_NOW });
      expect(schemaVersion(db)).toBe(50);
      expect(db.prepare('SELECT * FROM breach_data').all()).toEqual([
        { id: 1, source: null, pending: null, checks_json: null, checks_served: 'unknown', listed_json: null, updated_at: null, demo_cleared_at: null },
      ]);
      expect(() => db.prepare("UPDATE breach_data SET source = 'real'").run()).toThrow(/CHECK/);
      expect(() => db.prepare('INSERT INTO breach_data (id) VALUES (2)').run()).toThrow(/CHECK/);
      expect(readChecksView(db as never)).toEqual({ ...UNKNOWN_CHECKS, seq: expect.any(Number) });
      // Numbered in the order read, so a window keeps the later of an answer and an event.
      const first = readChecksView(db as never).seq!;
      expect(readChecksView(db as never).seq!).toBeGreaterThan(first);
    } finally {
      db.close();
    }
  });
});
