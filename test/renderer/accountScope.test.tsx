// @vitest-environment jsdom
// One account's data never reaches the next: every store that holds account data is reset when
// the account changes, and an answer asked for the previous account is dropped when it arrives
// late (renderer/lib/accountScope.ts, renderer/lib/core.ts invoke). The core here is a double
// whose answers the test releases by hand, so "late" is exact rather than timed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AuthStatus, BreachList, Overview } from '../../shared/ipc/views.ts';
import type { SearchRunResult } from '../../shared/ipc/contract.ts';
import type { Report } from '../../shared/report/report.ts';
import { accountTicket, currentAccount, onAccountChange } from '../../renderer/lib/accountScope.ts';
import { invoke } from '../../renderer/lib/core.ts';
import { EMPTY_FILTERS, parseHash } from '../../renderer/lib/urlState.ts';
import { useAuth } from '../../renderer/state/auth.ts';
import { useBreaches } from '../../renderer/state/breaches.ts';
import { useDetail } from '../../renderer/state/detail.ts';
import { useGraph } from '../../renderer/state/graph.ts';
import { useNotices } from '../../renderer/state/notices.ts';
import { useOverview } from '../../renderer/state/overview.ts';
import { usePreferences } from '../../renderer/state/preferences.ts';
import { useReport } from '../../renderer/state/report.ts';
import { useRoute } from '../../renderer/state/route.ts';
import { useSearch } from '../../renderer/state/search.ts';
import { useSync } from '../../renderer/state/sync.ts';
import './setup.tsx';

const ALICE: AuthStatus = { state: 'signed-in', account: { accountId: 'issuer#alice', issuer: 'issuer', email: 'alice@example.com' }, remembered: true };
const BOB: AuthStatus = { state: 'signed-in', account: { accountId: 'issuer#bob', issuer: 'issuer', email: 'bob@example.com' }, remembered: true };
const SIGNED_OUT: AuthStatus = { state: 'signed-out', remembered: true };

interface Pending {
  channel: string;
  args: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A core whose every answer waits until the test releases it. */
function installHeldCore(): Pending[] {
  const pending: Pending[] = [];
  window.monitor = {
    invoke: (channel, args) => new Promise((resolve, reject) => pending.push({ channel, args, resolve, reject })),
    on: () => () => {},
  };
  return pending;
}

function take(pending: Pending[], channel: string): Pending {
  const index = pending.findIndex((p) => p.channel === channel);
  if (index === -1) throw new Error(`nothing asked on ${channel}; asked: ${pending.map((p) => p.channel).join(', ')}`);
  return pending.splice(index, 1)[0]!;
}

/** Lets every settled promise's continuations run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

const ALICE_LIST: BreachList = {
  rows: [
    {
      breach: {
        id: 'AshleyMadison',
        name: 'Ashley Madison',
        title: 'Ashley Madison',
        domain: 'ashleymadison.com',
        breachDate: '2015-07-19',
        addedDate: '2015-08-18T00:00:00Z',
        modifiedDate: '2015-08-18T00:00:00Z',
        pwnCount: 30_811_934,
        description: 'A dating site.',
        logoPath: '',
        dataClasses: ['Email addresses', 'Passwords'],
        isVerified: true,
        isFabricated: false,
        isSensitive: true,
        isRetired: false,
        isSpamList: false,
        isMalware: false,
        isSubscriptionFree: false,
        isStealerLog: false,
      },
      emails: ['alice@example.com'],
      unresolved: 2,
      total: 2,
      pending: 0,
      failed: 0,
      isNew: false,
    },
  ],
  total: 1,
  hiddenSensitive: 0,
} as unknown as BreachList;

afterEach(() => {
  useSearch.getState().reset();
  useGraph.getState().reset();
});

describe('account scope', () => {
  it('the first account known is not a change; a sign-out and another account are', () => {
    installHeldCore();
    let resets = 0;
    const stop = onAccountChange(() => resets++);
    try {
      useAuth.getState().apply(ALICE);
      expect(currentAccount()).toBe('issuer#alice');
      expect(resets).toBe(0);
      useAuth.getState().apply({ ...ALICE, state: 'sign-in-needed' });
      expect(resets).toBe(0);
      useAuth.getState().apply(SIGNED_OUT);
      expect(currentAccount()).toBeUndefined();
      expect(resets).toBe(1);
      useAuth.getState().apply(BOB);
      expect(resets).toBe(2);
    } finally {
      stop();
    }
  });

  it('a reset that throws is reported and the resets after it still run: no store keeps the previous account', () => {
    installHeldCore();
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    let later = 0;
    const broken = onAccountChange(() => {
      throw new Error('a store failed to reset');
    });
    const after = onAccountChange(() => later++);
    try {
      useAuth.getState().apply(ALICE);
      useBreaches.setState({ list: ALICE_LIST });
      expect(() => useAuth.getState().apply(BOB)).not.toThrow();
      expect(later).toBe(1);
      expect(currentAccount()).toBe('issuer#bob');
      expect(useAuth.getState().status?.account?.email).toBe('bob@example.com');
      expect(useBreaches.getState().list).toBeUndefined();
      expect(reported).toHaveBeenCalledOnce();
    } finally {
      broken();
      after();
      reported.mockRestore();
    }
  });

  it('a search answer for alice that arrives after bob signed in is dropped, not shown to bob', async () => {
    const pending = installHeldCore();
    useAuth.getState().apply(ALICE);
    const run = useSearch.getState().search({ engine: 'embedded', query: 'dating', filters: undefined, onlyMine: true, answer: false });
    const asked = take(pending, 'search-run');
    expect(useSearch.getState().run?.status).toBe('running');

    useAuth.getState().apply(SIGNED_OUT);
    useAuth.getState().apply(BOB);
    // Reset at once: bob's page shows nothing of the run alice started.
    expect(useSearch.getState().run).toBeUndefined();

    const answer: SearchRunResult = {
      engine: 'embedded',
      searchQuery: 'dating',
      chunks: [{ id: 'breaches/AshleyMadison', type: 'text', score: 1, text: 'Ashley Madison', item: { key: 'breaches/AshleyMadison', timestamp: 0, metadata: {} } }],
    } as unknown as SearchRunResult;
    asked.resolve(answer);
    await flush();
    expect(useSearch.getState().run).toBeUndefined();
    // The dropped answer never settles the caller: nothing after it runs for bob.
    let settled = false;
    void run.then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
  });

  it('a late error for alice is not shown to bob either', async () => {
    const pending = installHeldCore();
    useAuth.getState().apply(ALICE);
    void useOverview.getState().load();
    const asked = take(pending, 'overview-get');
    useAuth.getState().apply(BOB);
    asked.reject({ code: 'network', message: 'The service at alice-only.example could not be reached.' });
    await flush();
    expect(useOverview.getState()).toMatchObject({ overview: undefined, error: undefined });
  });

  it('the list, the overview and the report drop answers asked for the previous account', async () => {
    const pending = installHeldCore();
    useAuth.getState().apply(ALICE);
    void useBreaches.getState().load(EMPTY_FILTERS);
    void useOverview.getState().load();
    void useReport.getState().load();
    const list = take(pending, 'breaches-list');
    const overview = take(pending, 'overview-get');
    const report = take(pending, 'report-get');
    useAuth.getState().apply(BOB);
    list.resolve(ALICE_LIST);
    overview.resolve({ breaches: 1 } as unknown as Overview);
    report.resolve({ rows: [] } as unknown as Report);
    await flush();
    expect(useBreaches.getState().list).toBeUndefined();
    expect(useOverview.getState().overview).toBeUndefined();
    expect(useReport.getState().report).toBeUndefined();
  });

  it('an answer asked for the current account still arrives', async () => {
    const pending = installHeldCore();
    useAuth.getState().apply(ALICE);
    useAuth.getState().apply(BOB);
    const load = useBreaches.getState().load(EMPTY_FILTERS);
    take(pending, 'breaches-list').resolve({ ...ALICE_LIST, rows: [], total: 0 });
    await load;
    expect(useBreaches.getState().list?.rows).toEqual([]);
  });

  it('sign-in answers are app-wide: they arrive whoever is signed in by then', async () => {
    const pending = installHeldCore();
    useAuth.getState().apply(SIGNED_OUT);
    const signIn = invoke('auth-sign-in', {});
    useAuth.getState().apply(BOB);
    take(pending, 'auth-sign-in').resolve(BOB);
    await expect(signIn).resolves.toEqual(BOB);
  });

  it('a ticket says whether the account it was taken under is still the one', () => {
    installHeldCore();
    useAuth.getState().apply(ALICE);
    const ticket = accountTicket();
    expect(ticket).toMatchObject({ account: 'issuer#alice' });
    expect(ticket.current()).toBe(true);
    useAuth.getState().apply(BOB);
    expect(ticket.current()).toBe(false);
  });

  it('every store holding account data is empty after the account changes', () => {
    installHeldCore();
    useAuth.getState().apply(ALICE);
    useBreaches.setState({ list: ALICE_LIST, domains: ['ashleymadison.com'], dataClasses: ['Passwords'] });
    useDetail.setState({ id: 'AshleyMadison' });
    useOverview.setState({ overview: { breaches: 1 } as unknown as Overview });
    useReport.setState({ report: { rows: [] } as unknown as Report });
    useNotices.setState({ newBreaches: ['AshleyMadison'] });
    usePreferences.setState({ preferences: { hiddenBreaches: ['Adobe'] } as never });
    useSync.setState({ status: { online: true, phase: 'idle', pending: 3, failed: 1 } });
    useSearch.setState({
      run: { requestId: 'r', status: 'done', chunks: [], answerText: 'Ashley Madison', answerKind: undefined, wantsAnswer: false, filters: undefined, maxResults: undefined },
      remote: { hasToken: true },
      dataClasses: ['Passwords'],
    });
    useGraph.setState({ remote: { url: 'https://graph.example', hasKey: true }, suggestions: { breach: ['AshleyMadison'], domain: [], dataClass: [] } });
    useRoute.getState().navigate(parseHash('#/breaches/AshleyMadison?email=alice%40example.com&text=dating'));

    useAuth.getState().apply(SIGNED_OUT);

    expect(useBreaches.getState()).toMatchObject({ list: undefined, domains: [], dataClasses: [] });
    expect(useDetail.getState().id).toBeUndefined();
    expect(useOverview.getState().overview).toBeUndefined();
    expect(useReport.getState().report).toBeUndefined();
    expect(useNotices.getState().newBreaches).toEqual([]);
    expect(usePreferences.getState().preferences).toBeUndefined();
    expect(useSync.getState().status).toBeUndefined();
    expect(useSearch.getState()).toMatchObject({ run: undefined, remote: undefined, dataClasses: [] });
    expect(useGraph.getState()).toMatchObject({ blocks: [], remote: undefined, suggestions: { breach: [], domain: [], dataClass: [] } });
    expect(useRoute.getState().route).toEqual({ screen: 'overview', filters: EMPTY_FILTERS });
    expect(window.location.hash).toBe('#/overview');
  });
});
