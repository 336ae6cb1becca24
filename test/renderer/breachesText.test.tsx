// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

// The list's text box reads data classes and dates as the Search page reads a question, and
// says so under the box. The core's SQL gives the same rows: test/core/queries/localQueries.test.ts
// (and in Chromium, test/e2e/search.e2e.test.ts).
const IDS = ['Canva', 'Adobe', 'LinkedIn', 'AdultSite'];
/** The sample breaches listed, in the fake's order (its ids), checked against the number of rows. */
function rows(): string[] {
  const listed = IDS.filter((id) => screen.queryByRole('option', { name: new RegExp(`^${id},`) }) !== null);
  expect(within(screen.getByRole('listbox', { name: 'Breaches' })).queryAllByRole('option')).toHaveLength(listed.length);
  return listed;
}

describe('breaches list: the text box understood', () => {
  test('"passwords" finds the breaches that leaked passwords; "since 2014" and "user names" narrow it; the reading is said', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    const box = await screen.findByRole('searchbox', { name: 'Search breaches' });
    await user.type(box, 'passwords');
    await waitFor(() => expect(core.callsOf('breaches-list').at(-1)).toMatchObject({ text: 'passwords' }));
    await waitFor(() => expect(rows()).toEqual(['Canva', 'Adobe', 'LinkedIn']));
    expect(box).toHaveAccessibleDescription('Breaches that exposed Passwords.');

    await user.type(box, ' since 2014');
    await waitFor(() => expect(rows()).toEqual(['Canva']));
    expect(box).toHaveAccessibleDescription('Breaches that exposed Passwords, breached from 2014-01-01.');

    await user.clear(box);
    await user.type(box, 'user names ado');
    await waitFor(() => expect(rows()).toEqual(['Adobe']));
    expect(box).toHaveAccessibleDescription('Breaches that exposed Usernames, naming “ado”.');

    // Plain words say nothing more: they are found in names, domains and data classes.
    await user.clear(box);
    await user.type(box, 'hint');
    await waitFor(() => expect(rows()).toEqual(['Adobe']));
    expect(box).not.toHaveAttribute('aria-describedby');
    await expectAccessible();
  });
});
