// @vitest-environment jsdom
// Where breach data comes from, as the person sees it: the three first-run choices, the demo
// label on every exposure screen, "unknown is not clean" while addresses are pending, stealer
// logs with their steps, switching from demo to real data, and the password check.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { UNKNOWN_CHECKS, type ChecksView } from '../../shared/ipc/checks.ts';
import { useChecks } from '../../renderer/state/checks.ts';
import { ALICE, BOB, FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

const signedOut = { auth: { state: 'signed-out' as const, account: undefined, remembered: true } };
const NOW = Date.parse('2026-11-26T09:00:00Z');
const at = (minutesFromNow: number) => new Date(NOW + minutesFromNow * 60_000).toISOString().slice(0, 16) + ':00Z';
const DEMO_LABEL = 'Demo data — these breaches are invented.';

// "Next check in 3 min" is read against the clock: only Date is frozen (timers run as usual).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});
afterEach(() => {
  vi.useRealTimers();
});

function hibpChecks(overrides: Partial<NonNullable<ChecksView['checks']>> = {}): ChecksView {
  const checks = {
    source: 'hibp' as const,
    attribution: 'Have I Been Pwned',
    addresses: [
      { email: ALICE, state: 'checked' as const, checkedAt: at(-5), nextCheckAt: null, breachCount: 0, viaDomainSearch: false },
      { email: BOB, state: 'pending' as const, checkedAt: null, nextCheckAt: at(3), breachCount: null, viaDomainSearch: false },
      { email: 'carol@example.com', state: 'pending' as const, checkedAt: null, nextCheckAt: at(4), breachCount: null, viaDomainSearch: false },
    ],
    queue: { requestsPerMinute: 10, waiting: 2, nextCheckAt: at(3) },
    stealerLogs: { available: true, entries: [] },
    problem: null,
    ...overrides,
  };
  const pending = checks.addresses.filter((address) => address.state === 'pending').length;
  return { source: 'hibp', pending, checks, checksServed: 'yes', updatedAt: at(-1), demoClearedAt: null };
}

function demoCore(): FakeCore {
  const core = new FakeCore();
  core.checks = { source: 'demo', pending: 0, checks: null, checksServed: 'no', updatedAt: at(-1), demoClearedAt: null };
  core.settings = { ...core.settings, breachSource: 'demo' };
  return core;
}

const demoLabels = () => screen.queryAllByRole('status').filter((element) => element.textContent?.includes(DEMO_LABEL));

describe('first run: three honest choices', () => {
  test('Have I Been Pwned: the key is asked for, where to buy one is linked, and it goes to the core once, then leaves the page', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    await user.click(await screen.findByRole('radio', { name: /Check my addresses with Have I Been Pwned/ }));
    const key = screen.getByLabelText('Have I Been Pwned API key');
    expect(key).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Get an API key from Have I Been Pwned' })).toHaveAttribute('href', 'https://haveibeenpwned.com/API/Key');
    expect(screen.getByText(/kept in your system keychain/)).toBeInTheDocument();
    await expectAccessible();

    // Nothing typed: said in words at the field, nothing sent, no sign-in.
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Paste your API key.')).toBeInTheDocument();
    expect(key).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('breach-source-set')).toHaveLength(0);
    await user.type(key, 'this is not a key at all!');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/only letters, digits/)).toBeInTheDocument();
    expect(core.callsOf('breach-source-set')).toHaveLength(0);

    await user.clear(key);
    await user.type(key, '0123456789abcdef0123456789abcdef');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
    expect(core.callsOf('breach-source-set')).toEqual([{ choice: 'hibp', apiKey: '0123456789abcdef0123456789abcdef' }]);
    expect(core.hibpKey).toBe('0123456789abcdef0123456789abcdef');
  });

  test('without a keychain the key is said to last for this session only', async () => {
    const user = userEvent.setup();
    const core = new FakeCore(signedOut);
    core.keyRemembered = false;
    renderApp({ core });
    await user.click(await screen.findByRole('radio', { name: /Check my addresses with Have I Been Pwned/ }));
    expect(await screen.findByText(/No keychain is available, so the key is kept for this session only/)).toBeInTheDocument();
  });

  test('demo data: chosen, then signed in', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    await user.click(await screen.findByRole('radio', { name: /Try it with demo data/ }));
    expect(screen.queryByLabelText('Have I Been Pwned API key')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
    expect(core.callsOf('breach-source-set')).toEqual([{ choice: 'demo' }]);
  });
});

describe('demo data is labelled wherever exposures are shown', () => {
  test.each([
    ['#/overview', 'Overview'],
    ['#/breaches', 'Breaches'],
    ['#/breaches/Adobe', 'Breaches'],
    ['#/fix', 'Fix step by step'],
    ['#/reports', 'Reports'],
  ])('%s carries the label', async (hash, heading) => {
    renderApp({ core: demoCore(), hash });
    expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
    await waitFor(() => expect(demoLabels()).toHaveLength(1));
    expect(demoLabels()[0]).toHaveAttribute('aria-live', 'polite');
    await expectAccessible();
  });

  test('the printed report and the exports say demo too', async () => {
    const core = demoCore();
    renderApp({ core, hash: '#/reports' });
    expect(await screen.findByRole('heading', { name: 'Breach Monitor report — demo data' })).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent(DEMO_LABEL);
  });

  test('no label on screens without exposures, nor with real data', async () => {
    renderApp({ core: demoCore(), hash: '#/settings' });
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
    expect(demoLabels()).toHaveLength(0);
  });

  test('new demo breaches are announced as invented, never as real', async () => {
    const core = demoCore();
    renderApp({ core });
    await waitFor(() => expect(demoLabels()).toHaveLength(1));
    act(() => core.emit('breaches-new', { breaches: [{ id: 'Adobe', breachDate: '2013-10-04', dataClasses: ['Passwords'], emails: [ALICE] }] }));
    const banner = await screen.findByRole('region', { name: 'New breaches' });
    expect(banner).toHaveTextContent('Demo: 1 new invented breach naming you: Adobe');
  });

  test('real data carries no label, and credits Have I Been Pwned for the checks', async () => {
    const core = new FakeCore();
    core.checks = hibpChecks();
    renderApp({ core });
    expect(await screen.findByRole('heading', { name: 'Your addresses' })).toBeInTheDocument();
    expect(demoLabels()).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Have I Been Pwned' })).toHaveAttribute('href', 'https://haveibeenpwned.com');
  });
  // The browser host brings answers and events over different connections. At a first sign-in
  // the window asks for the checks while the first sync is running; that sync's event (demo) can
  // arrive before the answer read just before it ("unknown"), which must not undo the label.
  test('an answer read before the sync’s event does not take the label away when it arrives after it', async () => {
    const core = new FakeCore();
    core.checks = { ...UNKNOWN_CHECKS, seq: 1 };
    renderApp({ core, hash: '#/overview' });
    expect(await screen.findByRole('heading', { name: 'Overview', level: 1 })).toBeInTheDocument();
    const release = core.delayAnswers('checks-get');
    const asked = useChecks.getState().load();
    const demo: ChecksView = { source: 'demo', pending: 0, checks: null, checksServed: 'no', updatedAt: at(0), demoClearedAt: null, seq: 2 };
    core.checks = demo;
    act(() => core.emit('checks-changed', demo));
    await waitFor(() => expect(demoLabels()).toHaveLength(1));
    release();
    await act(async () => {
      await asked;
    });
    expect(demoLabels()).toHaveLength(1);
    expect(useChecks.getState().view.source).toBe('demo');
  });
});

describe('unknown is not clean', () => {
  test('while addresses are pending: "Checking 2 of your addresses…" with progress, never "No breaches"', async () => {
    const core = new FakeCore({ breaches: [] });
    core.checks = hibpChecks();
    renderApp({ core, hash: '#/breaches' });
    expect(await screen.findByRole('heading', { name: 'Checking 2 of your addresses…' })).toBeInTheDocument();
    expect(screen.queryByText('No breaches found')).toBeNull();
    const banner = screen.getByRole('region', { name: 'Breach checks' });
    expect(within(banner).getByRole('progressbar', { name: '1 of 3 addresses checked' })).toHaveAttribute('value', '1');
    await expectAccessible();
  });

  test('the overview lists each address: checked and clean, pending with its next check, and the queue', async () => {
    const core = new FakeCore({ breaches: [] });
    core.checks = hibpChecks();
    renderApp({ core });
    const card = await screen.findByRole('region', { name: 'Your addresses' });
    const rows = within(card).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(/alice@example\.com.*checked .*, in no known breach/);
    expect(rows[1]).toHaveTextContent(/bob@example\.com.*not checked yet — next check in 3 min/);
    expect(within(card).getByText('Next check in 3 min — your key allows 10 lookups a minute (2 lookups queued)')).toBeInTheDocument();
    expect(screen.queryByText('No breaches found')).toBeNull();
  });

  test('all checked and clean: only then the empty list says no breaches, with when each was checked', async () => {
    const core = new FakeCore({ breaches: [] });
    core.checks = hibpChecks({ addresses: [{ email: ALICE, state: 'checked', checkedAt: at(-5), nextCheckAt: null, breachCount: 0, viaDomainSearch: false }] });
    renderApp({ core });
    expect(await screen.findByRole('heading', { name: 'No breaches found' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your addresses' })).toHaveTextContent(/checked .*, in no known breach/);
    expect(screen.queryByRole('region', { name: 'Breach checks' })).toBeNull();
  });

  test('a problem is a sentence with what to do, and the list does not claim clean', async () => {
    const core = new FakeCore({ breaches: [] });
    core.checks = hibpChecks({ problem: { code: 'key-refused', detail: 'Have I Been Pwned refused the API key (401).' } });
    renderApp({ core, hash: '#/breaches' });
    const banner = await screen.findByRole('region', { name: 'Breach checks' });
    expect(banner).toHaveTextContent('Have I Been Pwned refused the API key (401). Check the key in Settings → Breach data');
    expect(within(banner).getByRole('link', { name: 'Open Settings' })).toHaveAttribute('href', '#/settings');
    expect(screen.getByRole('heading', { name: 'Your addresses haven’t been checked' })).toBeInTheDocument();
    expect(screen.queryByText('No breaches found')).toBeNull();
  });

  test('checks arriving as an event move the view along', async () => {
    const core = new FakeCore({ breaches: [] });
    core.checks = hibpChecks();
    renderApp({ core, hash: '#/breaches' });
    expect(await screen.findByRole('heading', { name: 'Checking 2 of your addresses…' })).toBeInTheDocument();
    act(() =>
      core.emit('checks-changed', hibpChecks({ addresses: hibpChecks().checks!.addresses.map((address) => ({ ...address, state: 'checked', checkedAt: at(0), breachCount: 0, nextCheckAt: null })) })),
    );
    expect(await screen.findByRole('heading', { name: 'No breaches found' })).toBeInTheDocument();
  });
});

describe('stealer logs', () => {
  test('beside the breaches, with the guided steps and the credit', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.checks = hibpChecks({ stealerLogs: { available: true, entries: [{ email: ALICE, domains: ['netflix.com', 'spotify.com'], checkedAt: at(-5) }] } });
    renderApp({ core });
    const logs = await screen.findByRole('group', { name: 'Stealer logs' });
    expect(logs).toHaveTextContent('An infostealer captured your passwords for netflix.com, spotify.com (alice@example.com).');
    expect(within(logs).getByText(/Stealer logs by/)).toBeInTheDocument();
    await user.click(within(logs).getByRole('link', { name: 'What to do' }));
    const fix = await screen.findByRole('region', { name: 'Passwords an infostealer captured' });
    const steps = within(fix).getAllByRole('listitem');
    expect(steps[0]).toHaveTextContent(/^First clean the computer/);
    expect(within(fix).getAllByRole('link', { name: /Open netflix\.com/ })[0]).toHaveAttribute('href', 'https://netflix.com');
    await expectAccessible();
  });
});

describe('switching from demo to real data', () => {
  test('clears the invented breaches and says so', async () => {
    const user = userEvent.setup();
    const core = demoCore();
    const invented = core.breaches.length;
    renderApp({ core, hash: '#/settings' });
    const section = await screen.findByRole('form', { name: 'Breach data' });
    await user.click(within(section).getByRole('radio', { name: /Have I Been Pwned, with my API key/ }));
    expect(within(section).getByText('Switching removes the invented demo breaches from this computer.')).toBeInTheDocument();
    await user.type(within(section).getByLabelText('Have I Been Pwned API key'), 'fedcba9876543210fedcba9876543210');
    await user.click(within(section).getByRole('button', { name: 'Use this' }));
    expect(await within(section).findByRole('status')).toHaveTextContent(
      `Breach data now comes from Have I Been Pwned, with my API key. The ${invented} invented breaches of the demo were removed from this computer.`,
    );
    expect(within(section).getByLabelText('Have I Been Pwned API key')).toHaveValue('');
    expect(core.breaches).toHaveLength(0);
    await waitFor(() => expect(demoLabels()).toHaveLength(0));
  });
});

describe('check a password', () => {
  // The range API's own example (haveibeenpwned.com/API/v3#SearchingPwnedPasswordsByRange): SHA-1("P@ssw0rd").
  const PASSWORD = 'P@ssw0rd';
  const HASH = '21BD12DC183F740EE76F27B78EB39C8AD972A757';

  test('only 5 hash characters leave the page; the count is shown and the field cleared', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    const hash = HASH;
    core.pwnedRanges.set(hash.slice(0, 5), [
      { suffix: 'F'.repeat(35), count: 3 },
      { suffix: hash.slice(5), count: 52256 },
    ]);
    renderApp({ core, hash: '#/passwords' });
    const field = await screen.findByLabelText('Password');
    await user.type(field, PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Seen 52,256 times in breaches — never use it.')).toBeInTheDocument();
    expect(field).toHaveValue('');
    expect(core.pwnedPrefixes).toEqual([hash.slice(0, 5)]);
    // Nothing of the password or the rest of its hash went to the core, on any channel.
    const sent = JSON.stringify(core.calls);
    expect(sent).not.toContain(PASSWORD);
    expect(sent).not.toContain(hash.slice(5, 15));
    expect(screen.getByRole('link', { name: 'Pwned Passwords by Have I Been Pwned' })).toBeInTheDocument();
    await expectAccessible();
  });

  test('not found, empty field, and a failure each say so', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    renderApp({ core, hash: '#/passwords' });
    const field = await screen.findByLabelText('Password');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Type a password to check.')).toBeInTheDocument();
    expect(core.pwnedPrefixes).toHaveLength(0);

    await user.type(field, 'a password nobody used');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByText('Not found in any known breach.')).toBeInTheDocument();

    core.failures.set('passwords-range', { code: 'unavailable', message: 'Pwned Passwords could not be reached (ECONNREFUSED).' });
    await user.type(field, 'another');
    await user.click(screen.getByRole('button', { name: 'Check' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^The password couldn’t be checked\. Pwned Passwords could not be reached \(.+\)\. Type it again to retry\.$/);
    expect(field).toHaveValue('');
  });
});
