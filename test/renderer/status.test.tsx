// @vitest-environment jsdom
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { useAuth } from '../../renderer/state/auth.ts';
import { useSync } from '../../renderer/state/sync.ts';
import { ALICE } from './fakeCore.ts';
import { expectAccessible, renderApp, settle } from './setup.tsx';

describe('status bar and banners', () => {
  test('online, last sync, and Sync now', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview' });
    expect(await screen.findByText('Online')).toBeInTheDocument();
    expect(screen.getByText(/Last synced/)).toHaveTextContent('Last synced yesterday');
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(core.callsOf('sync-now')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.statusbar')).toHaveTextContent(/Last synced (just now|1 minute ago)/));
    await expectAccessible();
  });

  test('Sync now shows progress at once, before the core says anything, while offline too', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview', sync: { online: false, lastError: 'The service cannot be reached.' } });
    expect(await screen.findByText('Offline')).toBeInTheDocument();
    // The core's answer (the whole sync) is held: what shows meanwhile is this window's own doing.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const invoke = core.invoke.bind(core);
    core.invoke = async (channel, args) => {
      if (channel === 'sync-now') await held;
      return invoke(channel, args);
    };
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    expect(document.querySelector('.statusbar-sync')).toHaveTextContent('Syncing…');
    expect(screen.getByRole('progressbar', { name: 'Sync progress' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
    release();
    await waitFor(() => expect(document.querySelector('.statusbar-sync')).not.toHaveTextContent('Syncing…'));
  });

  test('sync progress, pending and failed counts, and the last error', async () => {
    const { core } = renderApp({ hash: '#/overview' });
    await screen.findByText('Online');
    act(() => core.emit('sync-changed', { online: true, phase: 'pulling', pending: 3, failed: 1, progress: { done: 40, total: 120 }, lastError: 'HTTP 503 from the service' }));
    expect(screen.getByText('Fetching breaches')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Sync progress' })).toHaveAttribute('value', '40');
    expect(screen.getByText('3 changes queued')).toBeInTheDocument();
    expect(screen.getByText('1 change failed')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeDisabled();
    act(() => core.emit('sync-changed', { online: false, phase: 'idle', pending: 3, failed: 0, lastError: 'The service cannot be reached.' }));
    expect(screen.getByText('Offline')).toBeInTheDocument();
    expect(screen.getByText('Last sync failed: The service cannot be reached.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled();
  });

  test('sign-in needed: a banner with Sign in, the data still usable', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches', auth: { state: 'sign-in-needed' } });
    const banner = await screen.findByRole('region', { name: 'Sign-in needed' });
    expect(banner).toHaveTextContent(`Your session for ${ALICE} has ended`);
    expect(await screen.findByRole('listbox', { name: 'Breaches' })).toBeInTheDocument();
    await expectAccessible();
    core.signInBehaviour = 'hang';
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/Finish signing in in your browser/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    core.signInBehaviour = 'succeed';
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Sign-in needed' })).toBeNull());
  });

  test("sign-in needed on the person's own service: Continue, and no browser to wait for", async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches', auth: { state: 'sign-in-needed', ownerSignIn: true } });
    await screen.findByRole('region', { name: 'Sign-in needed' });
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    await expectAccessible();
    core.signInBehaviour = 'hang';
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/Signing you in…/)).toBeInTheDocument();
    expect(screen.queryByText(/browser\.$/)).toBeNull();
    expect(screen.queryByRole('link', { name: /Open the sign-in page/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    core.signInBehaviour = 'succeed';
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Sign-in needed' })).toBeNull());
  });

  test('new breaches and open-breach events', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview' });
    await screen.findByText('Online');
    act(() => core.emit('breaches-new', { breaches: [{ id: 'Canva', breachDate: '2019-05-24', dataClasses: ['Passwords'], emails: ['bob@example.com'] }] }));
    const banner = screen.getByRole('region', { name: 'New breaches' });
    expect(banner).toHaveTextContent('1 new breach naming you: Canva.');
    await user.click(screen.getByRole('button', { name: 'Review Canva' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Canva' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'New breaches' })).toBeNull();
    act(() => core.emit('open-breach', { id: 'LinkedIn' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'LinkedIn' })).toBeInTheDocument();
  });

  test('signing out elsewhere returns to the welcome screen', async () => {
    const { core } = renderApp({ hash: '#/overview' });
    await screen.findByText('Online');
    act(() => core.emit('auth-changed', { state: 'signed-out', remembered: true }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });
});

// Answers and events reach a window over different connections (the browser host's HTTP and its
// event stream), so they can arrive in either order; what the window shows must not depend on it.
describe('status when answers and events cross', () => {
  test('an answer computed before an event does not replace what the event said', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview', sync: { seq: 1 } });
    await screen.findByText('Online');
    // The window asks for the status while a sync is pulling; the answer is held in transit.
    core.sync = { ...core.sync, phase: 'pulling', seq: 5 };
    const release = core.delayAnswers('sync-status');
    const asked = useSync.getState().load();
    // The sync ends and its event arrives first.
    act(() => core.setSync({ phase: 'idle', lastSyncAt: new Date().toISOString(), seq: 6 }));
    release();
    await act(async () => {
      await asked;
    });
    expect(screen.getByRole('button', { name: 'Sync now' })).toBeEnabled();
    expect(document.querySelector('.statusbar-sync')).toHaveTextContent(/Last synced/);
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    await waitFor(() => expect(core.callsOf('sync-now')).toHaveLength(1));
  });

  test('after a sign-in whose answer arrives before its event, the first sync still shows', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ auth: { state: 'signed-out', account: undefined, remembered: true }, sync: { lastSyncAt: undefined } });
    // Events of the sign-in wait in transit; the first sync's events come before the answer.
    const held: (() => void)[] = [];
    const emit = core.emit.bind(core);
    core.emit = ((event, payload) => {
      if (event === 'auth-changed') held.push(() => emit(event, payload));
      else emit(event, payload);
    }) as typeof core.emit;
    const invoke = core.invoke.bind(core);
    core.invoke = async (channel, args) => {
      const answer = await invoke(channel, args);
      if (channel === 'auth-sign-in') core.setSync({ lastSyncAt: new Date().toISOString() });
      return answer;
    };
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await screen.findByRole('navigation', { name: 'Main' });
    core.emit = emit;
    act(() => held.splice(0).forEach((deliver) => deliver()));
    await waitFor(() => expect(document.querySelector('.statusbar-sync')).toHaveTextContent(/Last synced (just now|1 minute ago)/));
  });
  test('a status answer computed before a sign-in’s event does not sign the window out again', async () => {
    const { core } = renderApp({ auth: { state: 'signed-out', account: undefined, remembered: true, seq: 1 } });
    await screen.findByRole('button', { name: 'Sign in' });
    // The window asks for the status (as it does when its event stream opens); the answer,
    // "signed out", is held in transit while the sign-in completes and its event arrives.
    const release = core.delayAnswers('auth-status');
    const asked = useAuth.getState().load();
    core.auth = { state: 'signed-in', account: { accountId: 'acc-1', issuer: core.settings.issuer, email: ALICE }, remembered: true, seq: 2 };
    act(() => core.emit('auth-changed', core.auth));
    await screen.findByRole('navigation', { name: 'Main' });
    release();
    await act(async () => {
      await asked;
    });
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).not.toBeInTheDocument();
    expect(useAuth.getState().status?.state).toBe('signed-in');
  });
  test('after the connection drops, a restarted core counting from 1 again is heard', async () => {
    const signedIn = { state: 'signed-in' as const, account: { accountId: 'acc-1', issuer: 'http://127.0.0.1:6060/oidc', email: ALICE }, remembered: true };
    const { core } = renderApp({ auth: { ...signedIn, seq: 40 }, sync: { seq: 41 } });
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(useAuth.getState().status?.seq).toBe(40));
    act(() => core.setConnected(false));
    // The core restarted while the stream was down: its views are numbered from 1 again.
    core.auth = { state: 'signed-out', remembered: true, seq: 1 };
    core.sync = { ...core.sync, lastSyncAt: undefined, seq: 2 };
    act(() => core.setConnected(true));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(useSync.getState().status?.seq).toBe(2);
  });
});

describe('asking for an account’s data', () => {
  test('a fresh sign-in asks for the new account’s data once; signing in again to the same account asks again', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ auth: { state: 'signed-out', account: undefined, remembered: true }, hash: '#/overview' });
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(core.callsOf('sync-status').length).toBeGreaterThan(0));
    // Let every answer and event of the sign-in land, then count.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const afterSignIn = core.callsOf('sync-status').length;
    const overviewAsks = core.callsOf('overview-get').length;
    // Everything the page asked once the sign-in was sent: each of the account's data once.
    const asked = core.calls.slice(core.calls.findIndex((call) => call.channel === 'auth-sign-in')).map((call) => call.channel);
    for (const channel of ['sync-status', 'overview-get', 'breaches-list', 'breaches-domains', 'breaches-data-classes']) {
      expect(
        asked.filter((name) => name === channel),
        channel,
      ).toHaveLength(1);
    }

    // The session ended and the same person signs in again: no change of account, so the
    // status event is what asks for the data again.
    const account = core.auth.account!;
    act(() => core.emit('auth-changed', { state: 'sign-in-needed', account, remembered: true }));
    act(() => core.emit('auth-changed', { state: 'signed-in', account, remembered: true }));
    await waitFor(() => expect(core.callsOf('sync-status').length).toBe(afterSignIn + 1));
    await waitFor(() => expect(core.callsOf('overview-get').length).toBe(overviewAsks + 1));
  });
});

describe('the event stream opening for the first time', () => {
  const FIRST_ANSWERS = ['auth-status', 'sync-status', 'settings-get', 'checks-get'];
  const SHOWN = ['overview-get', 'breaches-list'];

  /** The page drawn and quiet, with its event stream not yet open (as the browser host's page is before its hello). */
  async function openedQuietly(missed: boolean) {
    const { core } = renderApp({ hash: '#/overview' });
    core.firstAnswersMissed = missed;
    await screen.findByRole('navigation', { name: 'Main' });
    await settle();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    const before = core.calls.length;
    act(() => core.setConnected(true));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    return core.calls.slice(before).map((call) => call.channel);
  }

  test('asks nothing again when the transport says no event was sent since the first answers', async () => {
    expect(await openedQuietly(false)).toEqual([]);
  });

  test('asks the first answers and everything shown again when an event may have been missed', async () => {
    const asked = await openedQuietly(true);
    for (const channel of [...FIRST_ANSWERS, ...SHOWN]) expect(asked, channel).toContain(channel);
  });
});
