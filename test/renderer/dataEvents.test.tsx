// @vitest-environment jsdom
// One checkbox click costs one round trip for the change and one for the list's counts: the
// toggle's reply is the breach as it now shows, and its own data-changed event is skipped.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { BOB } from './fakeCore.ts';
import { renderApp } from './setup.tsx';

async function openAdobe() {
  const rendered = renderApp({ hash: '#/breaches/Adobe' });
  await screen.findByRole('heading', { level: 2, name: 'Adobe' });
  await screen.findByRole('listbox', { name: 'Breaches' });
  return rendered;
}

describe('data-changed events', () => {
  test('a toggle asks the core twice: the change, then the list; never the breach again', async () => {
    const user = userEvent.setup();
    const { core } = await openAdobe();
    await waitFor(() => expect(core.callsOf('breaches-list').length).toBeGreaterThan(0));
    const before = core.calls.length;
    await user.click(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` }));
    await waitFor(() => expect(screen.getByRole('option', { name: /^Adobe, .*1 queued/ })).toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: `Passwords for ${BOB}` })).toHaveAccessibleDescription('Queued');
    expect(core.calls.slice(before).map((call) => call.channel)).toEqual(['resolutions-set', 'breaches-list']);
  });

  test('another window’s change to the open breach re-asks the list and that breach, not the suggestions', async () => {
    const { core } = await openAdobe();
    await waitFor(() => expect(core.callsOf('breaches-domains').length).toBeGreaterThan(0));
    const before = core.calls.length;
    act(() => core.emit('data-changed', { reason: 'resolution', breachIds: ['Adobe'], revision: 1000 }));
    await waitFor(() =>
      expect(
        core.calls
          .slice(before)
          .map((call) => call.channel)
          .sort(),
      ).toEqual(['breach-get', 'breaches-list']),
    );
  });

  test('a change to another breach leaves the open one alone', async () => {
    const { core } = await openAdobe();
    const before = core.calls.length;
    act(() => core.emit('data-changed', { reason: 'sync', breachIds: ['Canva'], revision: 1001 }));
    await waitFor(() => expect(core.calls.slice(before).map((call) => call.channel)).toEqual(['breaches-list']));
  });

  test('a new snapshot re-asks everything shown, suggestions included', async () => {
    const { core } = await openAdobe();
    const before = core.calls.length;
    act(() => core.emit('data-changed', { reason: 'sync', revision: 1002 }));
    await waitFor(() =>
      expect(
        core.calls
          .slice(before)
          .map((call) => call.channel)
          .sort(),
      ).toEqual(['breach-get', 'breaches-data-classes', 'breaches-domains', 'breaches-list']),
    );
  });
});
