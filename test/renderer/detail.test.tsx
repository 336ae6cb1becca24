// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { formatDate } from '../../renderer/lib/format.ts';
import { ALICE, BOB } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

async function openAdobe(options: Parameters<typeof renderApp>[0] = {}) {
  const rendered = renderApp({ hash: '#/breaches/Adobe', ...options });
  await screen.findByRole('heading', { level: 2, name: 'Adobe' });
  return rendered;
}

describe('breach detail', () => {
  test('facts, and a matrix of emails × data classes with resolvedAt', async () => {
    await openAdobe();
    const detail = screen.getByRole('article', { name: 'Adobe' });
    expect(within(detail).getByText('adobe.com')).toBeInTheDocument();
    expect(detail).toHaveTextContent(`Breached${formatDate('2013-10-04')}`);
    expect(within(detail).getByText('1 of 8 resolved')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: `Email addresses for ${ALICE}` })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: `Email addresses for ${ALICE}` })).toHaveAccessibleDescription(`Resolved ${formatDate('2024-05-01T12:30:00Z')}`);
    expect(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Email addresses for all emails' })).toBePartiallyChecked();
    expect(screen.getByRole('checkbox', { name: `All classes for ${ALICE}` })).toBePartiallyChecked();
    expect(within(detail).getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    await expectAccessible();
  });

  test('a cell checkbox calls resolutions-set for that email and class, and shows Queued', async () => {
    const user = userEvent.setup();
    const { core } = await openAdobe();
    await user.click(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` }));
    await waitFor(() => expect(core.callsOf('resolutions-set')).toEqual([{ breachId: 'Adobe', dataClasses: ['Passwords'], emails: [BOB], resolved: true }]));
    const cell = screen.getByRole('checkbox', { name: `Passwords for ${BOB}` });
    expect(cell).toBeChecked();
    expect(cell).toHaveAccessibleDescription('Queued');
    expect(await screen.findByText('1 change queued.')).toBeInTheDocument();
    // The list row shows the queued marker too.
    expect(screen.getByRole('option', { name: /^Adobe, .*1 queued/ })).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: `Email addresses for ${ALICE}` }));
    await waitFor(() => expect(core.callsOf('resolutions-set')[1]).toEqual({ breachId: 'Adobe', dataClasses: ['Email addresses'], emails: [ALICE], resolved: false }));
  });

  test('per email, per class, and Mark all resolved', async () => {
    const user = userEvent.setup();
    const { core } = await openAdobe();
    await user.click(screen.getByRole('checkbox', { name: `All classes for ${BOB}` }));
    await waitFor(() =>
      expect(core.callsOf('resolutions-set')[0]).toEqual({ breachId: 'Adobe', dataClasses: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'], emails: [BOB], resolved: true }),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Usernames for all emails' }));
    await waitFor(() => expect(core.callsOf('resolutions-set')[1]).toEqual({ breachId: 'Adobe', dataClasses: ['Usernames'], resolved: true }));
    await user.click(screen.getByRole('button', { name: 'Mark all resolved' }));
    await waitFor(() => expect(core.callsOf('resolutions-set')[2]).toEqual({ breachId: 'Adobe', dataClasses: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'], resolved: true }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Mark all resolved' })).toBeDisabled());
    for (const box of screen.getAllByRole('checkbox', { name: / for / })) expect(box).toBeChecked();
    // A fully resolved class unchecks for every email.
    await user.click(screen.getByRole('checkbox', { name: 'Usernames for all emails' }));
    await waitFor(() => expect(core.callsOf('resolutions-set')[3]).toEqual({ breachId: 'Adobe', dataClasses: ['Usernames'], resolved: false }));
  });

  test('failed changes show the service’s reason, with Retry and Discard', async () => {
    const user = userEvent.setup();
    const { core } = await openAdobe();
    core.refuse = (intent) => (intent.dataClass === 'Passwords' ? 'Data class "Passwords" is not part of breach "Adobe" any more' : undefined);
    await user.click(screen.getByRole('checkbox', { name: `Passwords for ${ALICE}` }));
    await user.click(screen.getByRole('button', { name: 'Sync now' }));
    const failed = await screen.findByRole('region', { name: 'Failed changes' });
    expect(failed).toHaveTextContent(`Passwords for ${ALICE}:`);
    expect(failed).toHaveTextContent('is not part of breach "Adobe" any more');
    expect(screen.getByRole('checkbox', { name: `Passwords for ${ALICE}` })).toHaveAccessibleDescription('Failed');
    expect(screen.getByRole('option', { name: /^Adobe, .*1 failed/ })).toBeInTheDocument();
    await expectAccessible();

    await user.click(within(failed).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(core.callsOf('outbox-retry')).toEqual([{ breachId: 'Adobe' }]));
    // Still refused: Discard drops it and the cell goes back to the service's state.
    await user.click(within(await screen.findByRole('region', { name: 'Failed changes' })).getByRole('button', { name: 'Discard' }));
    await waitFor(() => expect(core.callsOf('outbox-discard')).toEqual([{ breachId: 'Adobe' }]));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Failed changes' })).toBeNull());
    expect(screen.getByRole('checkbox', { name: `Passwords for ${ALICE}` })).not.toBeChecked();
  });

  test('offline: changes wait in the queue with words saying so', async () => {
    const user = userEvent.setup();
    await openAdobe({ sync: { online: false } });
    await user.click(screen.getByRole('checkbox', { name: `Usernames for ${ALICE}` }));
    expect(await screen.findByText(/You’re offline; they’ll be sent when the service can be reached/)).toBeInTheDocument();
    expect(screen.getByText('Offline')).toBeInTheDocument();
  });

  test('a breach that no longer exists, and the close button', async () => {
    const user = userEvent.setup();
    renderApp({ hash: '#/breaches/Gone' });
    expect(await screen.findByRole('heading', { name: 'Removed by the service' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close breach detail' }));
    expect(window.location.hash).toBe('#/breaches');
    expect(await screen.findByRole('heading', { name: 'Choose a breach' })).toBeInTheDocument();
  });
});
