// @vitest-environment jsdom
// Which of the renderer's stores hold an account's data, found from the source rather than a
// list kept by hand: every zustand store and every module-level variable of `renderer/` must be
// named below, as the account's (it registers its reset with `onAccountChange`, and after a
// change of account holds nothing of the previous one) or as app-wide (with why). A store added
// tomorrow fails here until it is placed; one placed as the account's that forgets to reset a
// field fails naming the field. renderer/lib/accountScope.ts is the one place resets are kept.
import { describe, expect, it } from 'vitest';
import type { StoreApi } from 'zustand';
import type { AuthStatus } from '../../shared/ipc/views.ts';
import { EMPTY_FILTERS } from '../../renderer/lib/urlState.ts';
import { useAuth } from '../../renderer/state/auth.ts';
import './setup.tsx';

/** The renderer's source, by path from the repository root. */
const SOURCES = Object.fromEntries(
  Object.entries(import.meta.glob<string>(['../../renderer/**/*.ts', '../../renderer/**/*.tsx', '!**/vite.config.ts'], { query: '?raw', import: 'default', eager: true })).map(([file, text]) => [
    file.replace(/^(\.\.\/)+/, ''),
    text,
  ]),
);
const MODULES = import.meta.glob<Record<string, unknown>>(['../../renderer/**/*.ts', '../../renderer/**/*.tsx', '!**/vite.config.ts']);

const ALICE: AuthStatus = { state: 'signed-in', account: { accountId: 'issuer#alice', issuer: 'issuer', email: 'alice@example.com' }, remembered: true };
const BOB: AuthStatus = { state: 'signed-in', account: { accountId: 'issuer#bob', issuer: 'issuer', email: 'bob@example.com' }, remembered: true };

type Store = StoreApi<Record<string, unknown>>;

interface AccountStore {
  kind: 'account';
  /** A sample of one account's data for the fields its initial state leaves out (optional ones). */
  sample: Record<string, unknown>;
  /** What the store holds after a change when that is not its initial state. */
  after?: Record<string, unknown>;
  /** Fields that are not the account's, and why they stay. */
  keeps?: Record<string, string>;
}
type Placement = AccountStore | { kind: 'app-wide'; why: string };

/** Every zustand store of the renderer (`file#export`). */
const STORES: Record<string, Placement> = {
  'renderer/state/auth.ts#useAuth': { kind: 'app-wide', why: 'whose account it is: applying its status is what changes the account (setAccount)' },
  'renderer/state/settings.ts#useSettings': { kind: 'app-wide', why: "the app's settings, the same whoever signs in" },
  'renderer/state/theme.ts#useTheme': { kind: 'app-wide', why: 'the light or dark theme of the window' },
  'renderer/state/breachMedia.ts#useBreachMedia': { kind: 'app-wide', why: "logos of the public catalog from the details feed, which is the app's (configured by URL), not an account's" },
  'renderer/state/firstRun.ts#useFirstRun': {
    kind: 'app-wide',
    why: 'the first run goes on after the sign-in it started: set before the account exists, it must outlive the change of account',
  },
  'renderer/state/addresses.ts#useAddresses': { kind: 'account', sample: { error: 'alice' } },
  'renderer/state/breaches.ts#useBreaches': { kind: 'account', sample: { list: { rows: [{ id: 'AshleyMadison' }] }, filters: EMPTY_FILTERS, error: 'alice' } },
  'renderer/state/checks.ts#useChecks': {
    kind: 'account',
    sample: { error: 'alice' },
    keeps: { source: "the breach-data choice is an app setting (Settings.breachSource), and whether a key is kept is the app's" },
  },
  'renderer/state/detail.ts#useDetail': { kind: 'account', sample: { id: 'AshleyMadison', detail: { id: 'AshleyMadison' }, error: 'alice', actionError: 'alice' } },
  'renderer/state/graph.ts#useGraph': { kind: 'account', sample: { remote: { url: 'https://graph.example', hasKey: true } } },
  'renderer/state/logins.ts#useLogins': {
    kind: 'account',
    sample: { error: 'alice', running: { importId: 'alice-import', path: '/home/alice/passwords.csv', progress: undefined, cancelling: false }, outcome: { kind: 'cancelled', message: 'alice' } },
  },
  'renderer/state/notices.ts#useNotices': { kind: 'account', sample: {} },
  'renderer/state/nextSteps.ts#useNextSteps': {
    kind: 'account',
    sample: { summary: { next: { id: 'passwords', title: 'Passwords', why: 'alice', unresolved: 4, breaches: 2 }, progress: { weeks: [], before: 1, unknownDate: 0 } }, error: 'alice' },
  },
  'renderer/state/overview.ts#useOverview': { kind: 'account', sample: { overview: { breaches: 1 }, error: 'alice' } },
  'renderer/state/preferences.ts#usePreferences': { kind: 'account', sample: { preferences: { hiddenBreaches: ['Adobe'] }, error: 'alice' } },
  'renderer/state/report.ts#useReport': { kind: 'account', sample: { report: { rows: [] }, error: 'alice' } },
  'renderer/state/route.ts#useRoute': {
    kind: 'account',
    sample: {},
    // The route names the previous account's breach, email and search text: it goes back to the overview.
    after: { route: { screen: 'overview', filters: EMPTY_FILTERS } },
  },
  'renderer/state/search.ts#useSearch': { kind: 'account', sample: { run: { requestId: 'r', status: 'done' }, remote: { hasToken: true } } },
  'renderer/state/sync.ts#useSync': {
    kind: 'account',
    sample: { status: { online: true, phase: 'idle', pending: 3, failed: 1 }, error: 'alice' },
    keeps: { connected: "whether this window reaches the app's core, whoever is signed in" },
  },
};

/**
 * Every module-level variable of the renderer that can change (`let`, or a `Map`/`Set`), as
 * `file#name`: the account's when its module registers a reset (checked in its source), or
 * app-wide with why. Variables that a store's registered reset clears are the store's.
 */
const MODULE_STATE: Record<string, 'reset with the account' | { appWide: string }> = {
  'renderer/App.tsx#scrollPositions': 'reset with the account',
  'renderer/features/graph/lastQuery.ts#last': 'reset with the account',
  'renderer/features/breaches/FilterBar.tsx#chosenOpen': { appWide: 'whether the person keeps the filter panel open: a choice about the window' },
  'renderer/lib/httpMonitor.ts#shared': { appWide: "the page's one transport to the core" },
  'renderer/lib/core.ts#browserHost': { appWide: 'whether the page runs in the browser host' },
  'renderer/lib/accountScope.ts#current': { appWide: 'the account scope itself' },
  'renderer/lib/accountScope.ts#generation': { appWide: 'the account scope itself' },
  'renderer/state/breaches.ts#sequence': 'reset with the account',
  'renderer/state/breaches.ts#requested': 'reset with the account',
  'renderer/state/breaches.ts#early': 'reset with the account',
  'renderer/state/search.ts#nextRequest': { appWide: 'a counter that makes request ids unique; it names nobody' },
  'renderer/state/graph.ts#generation': 'reset with the account',
  'renderer/state/graph.ts#nextId': { appWide: 'a counter that makes query block ids unique; it names nobody' },
  'renderer/state/graph.ts#stopped': 'reset with the account',
  'renderer/state/dataEvents.ts#own': 'reset with the account',
  'renderer/state/dataEvents.ts#inFlight': 'reset with the account',
  'renderer/state/dataEvents.ts#waiting': 'reset with the account',
  'renderer/state/detail.ts#sequence': 'reset with the account',
  'renderer/state/detail.ts#toggles': 'reset with the account',
  'renderer/state/overview.ts#sequence': 'reset with the account',
  'renderer/state/overview.ts#firstScreenLoad': 'reset with the account',
  'renderer/state/nextSteps.ts#sequence': 'reset with the account',
  'renderer/state/report.ts#sequence': 'reset with the account',
};

const isStore = (value: unknown): value is Store => typeof value === 'function' && 'getState' in value && 'setState' in value && 'getInitialState' in value;
const data = (state: Record<string, unknown>) => Object.fromEntries(Object.entries(state).filter(([, value]) => typeof value !== 'function'));

/** A value of the same kind as `value` that no reset would produce by chance. */
function dirty(value: unknown): unknown {
  if (Array.isArray(value)) return ['alice-data'];
  if (typeof value === 'string') return 'alice-data';
  if (typeof value === 'number') return 4242;
  if (typeof value === 'boolean') return !value;
  return { alice: 'data' };
}

async function storesInSource(): Promise<Map<string, Store>> {
  const found = new Map<string, Store>();
  for (const [file, text] of Object.entries(SOURCES)) {
    if (!/from 'zustand'/.test(text) || !/\bcreate</.test(text)) continue;
    const module = await MODULES[`../../${file}`]!();
    for (const [name, value] of Object.entries(module)) if (isStore(value)) found.set(`${file}#${name}`, value);
  }
  return found;
}

describe('stores and the account scope', () => {
  it('every zustand store of the renderer is placed: the account’s, or app-wide with why', async () => {
    expect([...(await storesInSource()).keys()].sort()).toEqual(Object.keys(STORES).sort());
  });

  it("after a change of account, every account store holds nothing of the previous account's", async () => {
    const stores = await storesInSource();
    useAuth.getState().apply(ALICE);
    const placed = Object.entries(STORES).filter((entry): entry is [string, AccountStore] => entry[1].kind === 'account');
    const kept = new Map<string, Record<string, unknown>>();
    for (const [name, placement] of placed) {
      const store = stores.get(name)!;
      // Every field the store starts with, and the sample's, filled with alice's data.
      const filled = Object.fromEntries(Object.entries(data(store.getInitialState())).map(([key, value]) => [key, dirty(value)]));
      store.setState({ ...filled, ...placement.sample });
      kept.set(name, Object.fromEntries(Object.keys(placement.keeps ?? {}).map((key) => [key, store.getState()[key]])));
    }

    useAuth.getState().apply(BOB);

    for (const [name, placement] of placed) {
      const store = stores.get(name)!;
      const expected = { ...data(store.getInitialState()), ...placement.after, ...kept.get(name) };
      expect(data(store.getState()), `${name} after the account changed`).toEqual(expected);
    }
  });

  it('every module-level variable that can change is placed; the account’s are in modules that register a reset', () => {
    const found: string[] = [];
    for (const [file, text] of Object.entries(SOURCES)) {
      for (const match of text.matchAll(/^(?:export )?(?:let (\w+)|const (\w+)(?:: [^=]+)? = new (?:Map|Set|WeakMap)\b)/gm)) {
        const name = `${file}#${match[1] ?? match[2]}`;
        // Constant lookup tables built once (a Set of names) are not state.
        if (/^const \w+: Readonly|^const [A-Z_]+\b/.test(match[0])) continue;
        found.push(name);
      }
    }
    expect(found.sort()).toEqual(Object.keys(MODULE_STATE).sort());
    for (const [name, placement] of Object.entries(MODULE_STATE)) {
      const file = name.slice(0, name.indexOf('#'));
      if (placement === 'reset with the account') expect(SOURCES[file], `${file} registers its reset`).toMatch(/\bonAccountChange\(/);
    }
  });

  it('renderer/lib/accountScope.ts keeps the one set of resets: no other module keeps callbacks to run on a change', () => {
    const keepers = Object.entries(SOURCES)
      .filter(([, text]) => /new (?:Set|Map)<\(\) => void>|: \(\(\) => void\)\[\]|Array<\(\) => void>|new Emitter<void>/.test(text))
      .map(([file]) => file);
    expect(keepers).toEqual(['renderer/lib/accountScope.ts']);
  });
});
