// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { ALICE, BOB, FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

describe('guided fix', () => {
  test('one breach: groups in the order to act, steps in plain words with a link to the site', async () => {
    renderApp({ hash: '#/fix/Adobe' });
    expect(await screen.findByRole('heading', { name: 'Fix Adobe', level: 1 })).toBeInTheDocument();
    const groups = await screen.findAllByRole('region');
    expect(groups.map((region) => within(region).getByRole('heading', { level: 2 }).textContent)).toEqual(['Passwords and security questions', 'Contact data', 'Everything else']);
    const passwords = screen.getByRole('region', { name: 'Passwords and security questions' });
    expect(within(passwords).getByText('Change your password at adobe.com.')).toBeInTheDocument();
    expect(within(passwords).getByRole('link', { name: /Open adobe\.com/ })).toHaveAttribute('href', 'https://adobe.com');
    // Password hints were exposed, so the security-answers step is there; no auth tokens, so no sessions step.
    expect(within(passwords).getByText(/security questions’ answers/)).toBeInTheDocument();
    expect(within(passwords).queryByText(/Sign out of every other session/)).toBeNull();
    expect(within(passwords).getByText('4 of 4 items left')).toBeInTheDocument();
    await expectAccessible();
  });

  test('"Mark done" resolves the group’s classes for the ticked emails only, through the outbox', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/fix/Adobe' });
    const passwords = await screen.findByRole('region', { name: 'Passwords and security questions' });
    await user.click(within(passwords).getByRole('checkbox', { name: BOB }));
    expect(within(passwords).getByText('2 items will be marked fixed')).toBeInTheDocument();
    await user.click(within(passwords).getByRole('button', { name: 'Mark done: Passwords and security questions' }));
    expect(await within(passwords).findByRole('status')).toHaveTextContent('Marked 2 items of “Passwords and security questions” fixed.');
    expect(core.callsOf('fix-apply')).toEqual([{ intents: [{ breachId: 'Adobe', emails: [ALICE], dataClasses: ['Password hints', 'Passwords'] }] }]);
    expect([...core.outbox.keys()].sort()).toEqual([`Adobe|${ALICE}|Password hints`, `Adobe|${ALICE}|Passwords`]);
    await waitFor(() => expect(within(passwords).getByText('2 of 4 items left')).toBeInTheDocument());
    // Only Bob is left to do, still unticked as the person left him.
    expect(
      within(passwords)
        .getAllByRole('checkbox')
        .map((box) => [box.getAttribute('name') ?? box.closest('label')?.textContent, (box as HTMLInputElement).checked]),
    ).toEqual([[BOB, false]]);
  });

  test('offline, the change is queued and the message says when it is sent', async () => {
    const user = userEvent.setup();
    renderApp({ hash: '#/fix/Adobe', sync: { online: false } });
    const passwords = await screen.findByRole('region', { name: 'Passwords and security questions' });
    await user.click(within(passwords).getByRole('button', { name: /Mark done/ }));
    expect(await within(passwords).findByRole('status')).toHaveTextContent('You’re offline: they’ll be sent when the service can be reached.');
    await waitFor(() => expect(within(passwords).getByText('Done')).toBeInTheDocument());
  });

  test('a refused batch says why and changes nothing', async () => {
    const user = userEvent.setup();
    const core = new FakeCore();
    core.failures.set('fix-apply', { code: 'not-found', message: 'breach "Adobe" does not affect x in this account' });
    renderApp({ core, hash: '#/fix/Adobe' });
    const passwords = await screen.findByRole('region', { name: 'Passwords and security questions' });
    await user.click(within(passwords).getByRole('button', { name: /Mark done/ }));
    expect(await within(passwords).findByRole('status')).toHaveTextContent('That didn’t go through: breach "Adobe" does not affect x in this account');
    expect(core.outbox.size).toBe(0);
  });

  test('across breaches: each group lists the breaches with something left, linking to their own fix', async () => {
    // Opted in to sensitive breaches: every breach counts (the default is tested in sensitive.test.tsx).
    renderApp({ settings: { showSensitive: true }, hash: '#/fix?group=passwords' });
    const passwords = await screen.findByRole('region', { name: 'Passwords and security questions' });
    expect(within(passwords).getByRole('heading', { name: '3 breaches with something left' })).toBeInTheDocument();
    expect(within(passwords).getByRole('link', { name: 'Canva' })).toHaveAttribute('href', '#/fix/Canva');
    expect(within(passwords).getByText(/Change your password at each site below/)).toBeInTheDocument();
    await waitFor(() => expect(document.activeElement).toBe(within(passwords).getByRole('heading', { level: 2 })));
    await expectAccessible();
  });

  test('a breach that is gone is a designed state', async () => {
    renderApp({ hash: '#/fix/Nope' });
    expect(await screen.findByRole('heading', { name: 'This breach isn’t in your data any more' })).toBeInTheDocument();
  });
});

describe('overview: what to do next and progress', () => {
  test('leads with the most urgent group left and links into the fix there', async () => {
    renderApp({ settings: { showSensitive: true }, hash: '#/overview' });
    const next = await screen.findByRole('region', { name: 'What to do next' });
    expect(await within(next).findByText((_, node) => node?.className === 'next-group' && node.textContent === 'Passwords and security questions: 6 items left in 3 breaches.')).toBeInTheDocument();
    expect(within(next).getByRole('link', { name: 'Start with passwords and security questions' })).toHaveAttribute('href', '#/fix?group=passwords');
    expect(screen.getByRole('table', { name: 'Items fixed per week' })).toBeInTheDocument();
    await expectAccessible();
  });

  test('says so when nothing is left', async () => {
    const core = new FakeCore({ settings: { showSensitive: true } });
    for (const stored of core.breaches)
      for (const email of Object.keys(stored.accounts))
        stored.accounts[email] = Object.fromEntries(stored.breach.dataClasses.map((name) => [name, { resolvedAt: new Date().toISOString().slice(0, 16) + ':00Z' }]));
    renderApp({ core, hash: '#/overview' });
    const next = await screen.findByRole('region', { name: 'What to do next' });
    expect(await within(next).findByText(/Nothing left to fix/)).toBeInTheDocument();
    const perWeek = screen.getByRole('table', { name: 'Items fixed per week' });
    const cells = within(perWeek)
      .getAllByRole('cell')
      .map((cell) => Number(cell.textContent));
    expect(cells.at(-1)).toBe(core.breaches.reduce((sum, b) => sum + b.breach.dataClasses.length * Object.keys(b.accounts).length, 0));
  });
});
