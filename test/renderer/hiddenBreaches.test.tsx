// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

const list = () => screen.getByRole('listbox', { name: 'Breaches' });

describe('hidden breaches (preferences shared between devices)', () => {
  test('"Hide this breach" on the detail writes the preferences; the list leaves it out until "Show hidden"', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches/Adobe' });
    await screen.findByRole('heading', { level: 2, name: 'Adobe' });
    expect(within(list()).getAllByRole('option')).toHaveLength(3);
    expect(screen.queryByRole('checkbox', { name: /Show hidden/ })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Hide this breach' }));
    await waitFor(() => expect(core.callsOf('preferences-set')).toEqual([{ hiddenBreaches: ['Adobe'], showFlaggedBreaches: false, notifications: { newBreaches: true } }]));
    expect(core.preferences.hiddenBreaches).toEqual(['Adobe']);
    expect(await screen.findByText('Hidden from the list on all your devices.')).toBeInTheDocument();
    await waitFor(() => expect(within(list()).queryByRole('option', { name: /^Adobe/ })).not.toBeInTheDocument());
    expect(within(list()).getAllByRole('option')).toHaveLength(2);

    const showHidden = screen.getByRole('checkbox', { name: 'Show hidden (1)' });
    await user.click(showHidden);
    expect(within(list()).getByRole('option', { name: /^Adobe/ })).toBeInTheDocument();
    await expectAccessible();

    await user.click(screen.getByRole('button', { name: 'Show this breach again' }));
    await waitFor(() => expect(core.preferences.hiddenBreaches).toEqual([]));
    expect(screen.getByRole('button', { name: 'Hide this breach' })).toBeInTheDocument();
  });

  test('a breach hidden on another device is left out here from the start; all hidden shows a way back', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.preferences = { ...core.preferences, hiddenBreaches: ['Adobe', 'Canva', 'LinkedIn'] };
    renderApp({ hash: '#/breaches', core });
    expect(await screen.findByRole('heading', { name: 'Every breach here is hidden' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Show hidden (3)' })).not.toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Show hidden breaches' }));
    expect(within(list()).getAllByRole('option')).toHaveLength(3);
    expect(screen.getByRole('checkbox', { name: 'Show hidden (3)' })).toBeChecked();
  });

  test('a refused change is not pretended: the breach stays, and the reason is shown', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.failures.set('preferences-set', { code: 'sign-in-required', message: 'Sign in to use preferences shared between your devices.' });
    renderApp({ hash: '#/breaches/Adobe', core });
    await user.click(await screen.findByRole('button', { name: 'Hide this breach' }));
    expect(await screen.findByText('Hiding isn’t available: Sign in to use preferences shared between your devices.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Hide this breach' })).toBeInTheDocument();
    expect(within(list()).getByRole('option', { name: /^Adobe/ })).toBeInTheDocument();
    expect(core.preferences.hiddenBreaches).toEqual([]);
  });
});
