// @vitest-environment jsdom
// The newer Monitor contract in the UI: the service notices beside the list, and the contract
// choice in Settings.
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { dataClassKey } from '../../shared/api/index.ts';
import { BOB } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

describe('service notices and the contract setting', () => {
  test('unavailable: the list stays, and the banner says so; it goes once a sync succeeds', async () => {
    const { core } = renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    act(() => core.emit('sync-changed', { online: true, phase: 'idle', pending: 1, failed: 0, notice: { kind: 'unavailable', retryAt: '2030-01-01T10:30:00.000Z' } }));
    const banner = screen.getByRole('region', { name: 'Service unavailable' });
    expect(banner).toHaveTextContent('The service is unavailable, showing what you had.');
    expect(banner).toHaveTextContent('Your changes stay queued on this computer; trying again after');
    expect(screen.getByRole('listbox', { name: 'Breaches' })).toBeInTheDocument();
    await expectAccessible();
    act(() => core.emit('sync-changed', { online: true, phase: 'idle', pending: 0, failed: 0 }));
    expect(screen.queryByRole('region', { name: 'Service unavailable' })).toBeNull();
  });

  test('rate limited: "asked us to wait"', async () => {
    const { core } = renderApp({ hash: '#/overview' });
    await screen.findByText('Online');
    act(() => core.emit('sync-changed', { online: true, phase: 'idle', pending: 0, failed: 0, notice: { kind: 'rate-limited' } }));
    expect(screen.getByRole('region', { name: 'Service unavailable' })).toHaveTextContent('The service asked us to wait, showing what you had.');
    act(() => core.emit('sync-changed', { online: true, phase: 'idle', pending: 0, failed: 0, localOnly: 2 }));
    expect(screen.getByText('2 changes on this computer only')).toBeInTheDocument();
  });

  test('no account: "Sign up at …" opens the sign-up page in the system browser', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview' });
    await screen.findByText('Online');
    act(() => core.emit('sync-changed', { online: true, phase: 'idle', pending: 0, failed: 0, notice: { kind: 'no-account', signUpUrl: 'https://monitor.example.org/' } }));
    const banner = screen.getByRole('region', { name: 'No account at the service' });
    expect(banner).toHaveTextContent('This service has no account for you yet. Sign up at monitor.example.org, then choose Sync now.');
    await user.click(screen.getByRole('link', { name: 'monitor.example.org' }));
    await waitFor(() => expect(core.callsOf('open-link')).toEqual([{ url: 'https://monitor.example.org/' }]));
    await expectAccessible();
  });

  test('the contract is chosen in Settings and saved with the rest', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const newer = await screen.findByRole('radio', { name: /Mozilla Monitor for Firefox/ });
    expect(screen.getByRole('radio', { name: /Breach Alerts API/ })).toBeChecked();
    await user.click(newer);
    expect(screen.getByText(/this service asks for at most one sync an hour/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Switch the API contract?' });
    await expectAccessible();
    await user.click(within(dialog).getByRole('button', { name: 'Switch and sign in again' }));
    await waitFor(() => expect(core.callsOf('settings-set')).toEqual([expect.objectContaining({ apiContract: 'firefox-v1' })]));
  });

  test('a change the service cannot take is kept on this computer and labelled so, never queued', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches/Adobe' });
    core.keepLocal = (intent) => !intent.resolved || !['passwords', 'email-addresses'].includes(dataClassKey(intent.dataClass));
    await screen.findByRole('heading', { level: 2, name: 'Adobe' });
    await user.click(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` })).toHaveAccessibleDescription('Queued'));
    const other = core.breaches.find((b) => b.breach.id === 'Adobe')!.breach.dataClasses.find((name) => !['passwords', 'email-addresses'].includes(dataClassKey(name)))!;
    await user.click(screen.getByRole('checkbox', { name: `${other} for ${BOB}` }));
    const cell = screen.getByRole('checkbox', { name: `${other} for ${BOB}` });
    await waitFor(() => expect(cell).toHaveAccessibleDescription('Resolved on this computer only'));
    expect(cell).toBeChecked();
    await waitFor(() => expect(screen.getByText('1 change on this computer only')).toBeInTheDocument());
    await expectAccessible();
  });
});
