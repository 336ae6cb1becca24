// @vitest-environment jsdom
// The API contract as a choice a person makes: on the welcome screen under "Connect to a
// breach-alert service" (the only choice that raises it), and in Settings as one guided switch
// (never a refusal), saying what happens to queued changes.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

const signedOut = { auth: { state: 'signed-out' as const, account: undefined, remembered: true } };

describe('choosing the API contract', () => {
  test('the first screen asks only where breach data comes from; the contract is a question of "Connect to a breach-alert service"', async () => {
    const user = userEvent.setup();
    renderApp(signedOut);
    await screen.findByRole('group', { name: 'Breach data' });
    // The person's own key and demo data run on the local service, which speaks either contract: no question.
    for (const source of [/Check my addresses with Have I Been Pwned/, /Try it with demo data/]) {
      await user.click(screen.getByRole('radio', { name: source }));
      expect(screen.queryByRole('group', { name: 'API contract' })).toBeNull();
      expect(screen.queryByText(/Mozilla Monitor for Firefox/)).toBeNull();
    }
    await user.click(screen.getByRole('radio', { name: /Connect to a breach-alert service/ }));
    const contract = screen.getByRole('group', { name: 'API contract' });
    const original = within(contract).getByRole('radio', { name: /Breach Alerts API \(the original\)/ });
    const newer = within(contract).getByRole('radio', { name: /Mozilla Monitor for Firefox \(the newer one\)/ });
    expect(original).toBeChecked();
    expect(newer).not.toBeChecked();
    expect(within(contract).getByText(/only leaked passwords and email addresses can be marked as dealt with/)).toBeInTheDocument();
    await expectAccessible();
  });

  test('the chosen contract is saved before signing in (its scope is asked for at sign-in)', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    await user.click(await screen.findByRole('radio', { name: /Connect to a breach-alert service/ }));
    await user.click(screen.getByRole('radio', { name: /Mozilla Monitor for Firefox/ }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
    expect(core.callsOf('settings-set')).toEqual([{ apiContract: 'firefox-v1' }]);
    const order = core.calls.map((call) => call.channel).filter((channel) => channel === 'settings-set' || channel === 'auth-sign-in');
    expect(order).toEqual(['settings-set', 'auth-sign-in']);
  });

  test('leaving the contract as it is saves nothing', async () => {
    const user = userEvent.setup();
    const { core } = renderApp(signedOut);
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
    expect(core.callsOf('settings-set')).toEqual([]);
  });

  test('in Settings while signed in: one question that says what happens to queued changes; Cancel and Escape change nothing', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings', sync: { pending: 3 } });
    const form = await screen.findByRole('form', { name: 'Settings' });
    await user.click(within(form).getByRole('radio', { name: /Mozilla Monitor for Firefox/ }));
    expect(within(form).getByText(/Saving signs you out and starts signing in again, in one step/)).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    let dialog = await screen.findByRole('dialog', { name: 'Switch the API contract?' });
    expect(dialog).toHaveTextContent('Your 3 queued changes stay on this computer');
    expect(dialog).toHaveTextContent('the rest stay here, marked “kept on this computer”, until you switch back');
    expect(within(dialog).getByRole('button', { name: 'Switch and sign in again' })).toHaveFocus();
    await expectAccessible();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    dialog = await screen.findByRole('dialog', { name: 'Switch the API contract?' });
    expect(within(dialog).getByRole('button', { name: 'Switch and sign in again' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(core.callsOf('auth-sign-out')).toEqual([]);
    expect(core.callsOf('settings-set')).toEqual([]);
  });

  test('switching back to the original says the changes kept on this computer are sent', async () => {
    const user = userEvent.setup();
    const core = new FakeCore({ sync: { pending: 0, localOnly: 2 } });
    core.settings = { ...core.settings, apiContract: 'firefox-v1' };
    renderApp({ hash: '#/settings', core });
    await user.click(await screen.findByRole('radio', { name: /Breach Alerts API/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch the API contract?' });
    expect(dialog).toHaveTextContent('2 changes kept on this computer under the newer contract will be sent under the original one.');
  });

  test('a sign-out that fails switches nothing and says so', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    core.failures.set('auth-sign-out', { code: 'unavailable', message: 'The keychain could not be reached.' });
    await user.click(await screen.findByRole('radio', { name: /Mozilla Monitor for Firefox/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Switch the API contract?' })).getByRole('button', { name: 'Switch and sign in again' }));
    expect(await screen.findByText(/You’re still signed in, so nothing was switched/)).toBeInTheDocument();
    expect(core.callsOf('settings-set')).toEqual([]);
    expect(core.callsOf('auth-sign-in')).toEqual([]);
  });
});
