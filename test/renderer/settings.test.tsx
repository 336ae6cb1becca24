// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

/** The guided switch: the one confirmation, then sign-out (keeping local data), the save, and a new sign-in, in that order. */
async function confirmSwitch(user: ReturnType<typeof userEvent.setup>, core: FakeCore, title = 'Switch the API contract?') {
  const dialog = await screen.findByRole('dialog', { name: title });
  await user.click(within(dialog).getByRole('button', { name: 'Switch and sign in again' }));
  await waitFor(() => expect(core.callsOf('auth-sign-in')).toHaveLength(1));
  const order = core.calls.map((call) => call.channel).filter((channel) => ['auth-sign-out', 'settings-set', 'auth-sign-in'].includes(channel));
  expect(order).toEqual(['auth-sign-out', 'settings-set', 'auth-sign-in']);
  expect(core.callsOf('auth-sign-out')).toEqual([{ deleteLocalData: false }]);
}

describe('settings', () => {
  test('validation in words, then a save with the changed settings', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const url = await screen.findByRole('textbox', { name: 'Service URL' });
    const interval = screen.getByRole('spinbutton', { name: 'Sync interval (minutes)' });
    await user.clear(url);
    await user.type(url, 'monitor');
    await user.clear(interval);
    await user.type(interval, '2');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/Enter a full address/)).toBeInTheDocument();
    expect(screen.getByText(/Choose a whole number of minutes from 5 to 1440/)).toBeInTheDocument();
    expect(interval).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('settings-set')).toHaveLength(0);
    await expectAccessible();

    await user.clear(url);
    await user.type(url, 'https://monitor.example.com/api/v1');
    await user.clear(interval);
    await user.type(interval, '60');
    await user.click(screen.getByRole('checkbox', { name: 'Start at login' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    // Another service while signed in: one guided step, asked first.
    await confirmSwitch(user, core, 'Switch to another service?');
    expect(core.callsOf('settings-set')[0]).toMatchObject({ serviceUrl: 'https://monitor.example.com/api/v1', syncIntervalMinutes: 60, startAtLogin: true, notifications: true });
    expect(core.settings.startAtLogin).toBe(true);
  });

  test('the newer contract: choosing it asks for a sign-up page, checked before it is saved', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    expect(await screen.findByRole('radio', { name: /Breach Alerts API/ })).toBeChecked();
    expect(screen.queryByRole('textbox', { name: 'Sign-up page' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: /Mozilla Monitor for Firefox/ }));
    const signUp = screen.getByRole('textbox', { name: 'Sign-up page' });
    expect(signUp).toHaveValue('');
    await user.type(signUp, 'monitor signup');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/Enter the sign-up page’s full address/)).toBeInTheDocument();
    expect(signUp).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('settings-set')).toHaveLength(0);
    await expectAccessible();

    await user.clear(signUp);
    await user.type(signUp, 'https://monitor.example.com/signup');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await confirmSwitch(user, core);
    expect(core.callsOf('settings-set')[0]).toMatchObject({ apiContract: 'firefox-v1', signUpUrl: 'https://monitor.example.com/signup' });
    expect(core.settings).toMatchObject({ apiContract: 'firefox-v1', signUpUrl: 'https://monitor.example.com/signup' });
  });

  test('an empty sign-up page keeps the default: nothing is sent for it', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    await user.click(await screen.findByRole('radio', { name: /Mozilla Monitor for Firefox/ }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await confirmSwitch(user, core);
    expect(core.callsOf('settings-set')[0]).toMatchObject({ apiContract: 'firefox-v1' });
    expect(core.callsOf('settings-set')[0]).not.toHaveProperty('signUpUrl');
  });

  test('emptying a saved sign-up page clears it: the default applies again', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.settings = { ...core.settings, apiContract: 'firefox-v1', signUpUrl: 'https://monitor.example.com/signup' };
    renderApp({ hash: '#/settings', core });
    const signUp = await screen.findByRole('textbox', { name: 'Sign-up page' });
    expect(signUp).toHaveValue('https://monitor.example.com/signup');
    await user.clear(signUp);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(core.callsOf('settings-set')).toHaveLength(1));
    expect(core.callsOf('settings-set')[0]).toMatchObject({ signUpUrl: null });
    expect(core.settings).not.toHaveProperty('signUpUrl');
  });

  test('on all your devices: the new-breaches choice and hidden breaches live in the shared preferences', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.preferences = { ...core.preferences, hiddenBreaches: ['Adobe', 'Canva'] };
    renderApp({ hash: '#/settings', core });
    const section = await screen.findByRole('region', { name: 'On all your devices' });
    const newBreaches = await within(section).findByRole('checkbox', { name: 'Notify me of new breaches' });
    expect(newBreaches).toBeChecked();
    expect(within(section).getByText(/2 breaches hidden from the list/)).toBeInTheDocument();

    await user.click(newBreaches);
    await waitFor(() => expect(core.preferences.notifications.newBreaches).toBe(false));
    expect(newBreaches).not.toBeChecked();
    // The local settings are not the shared ones: nothing went to settings-set.
    expect(core.callsOf('settings-set')).toHaveLength(0);

    await user.click(within(section).getByRole('button', { name: 'Show all hidden breaches again' }));
    await waitFor(() => expect(core.preferences.hiddenBreaches).toEqual([]));
    expect(within(section).getByText('No breaches hidden.')).toBeInTheDocument();
    await expectAccessible();
  });

  test('on all your devices: a choice the core refuses springs back, with the reason', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.failures.set('preferences-set', { code: 'sign-in-required', message: 'Sign in to use preferences shared between your devices.' });
    renderApp({ hash: '#/settings', core });
    const section = await screen.findByRole('region', { name: 'On all your devices' });
    const newBreaches = await within(section).findByRole('checkbox', { name: 'Notify me of new breaches' });
    await user.click(newBreaches);
    expect(await within(section).findByRole('alert')).toHaveTextContent('These choices couldn’t be saved: Sign in to use preferences shared between your devices.');
    expect(newBreaches).toBeChecked();
  });

  test('the core’s refusal names the field', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    core.failures.set('settings-set', { code: 'invalid-arguments', message: 'invalid arguments for "settings-set"', issues: [{ path: 'issuer', message: 'Invalid URL' }] });
    await user.click(await screen.findByRole('checkbox', { name: 'Notifications' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(/Enter the identity provider’s address/)).toBeInTheDocument();
    expect(screen.getByText(/Settings weren’t saved/)).toBeInTheDocument();
  });

  test('theme applies at once and is saved', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    await user.click(await screen.findByRole('radio', { name: 'Dark' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(core.callsOf('settings-set')).toEqual([{ theme: 'dark' }]));
    await user.click(screen.getByRole('radio', { name: 'System' }));
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  test('Sign out, also deleting local data', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings', sync: { pending: 2 } });
    const also = await screen.findByRole('checkbox', { name: 'Also delete local data' });
    expect(also).not.toBeChecked();
    await user.click(also);
    expect(also).toHaveAccessibleDescription(/2 queued changes that haven’t reached the service will be lost/);
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(core.callsOf('auth-sign-out')).toEqual([{ deleteLocalData: true }]));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(core.breaches).toHaveLength(0);
  });
});
