// @vitest-environment jsdom
// The one sensitive policy on the pages: with "Show sensitive breaches" off (the default) the
// sensitive breach of the fake (AdultSite) is named nowhere, and each page that left something
// out says how much and links to the one setting; turned on in Settings, it is back. The fake
// core applies the same shared policy as the core (shared/api/sensitive.ts).
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { expectAccessible, renderApp, settle } from './setup.tsx';

const SENSITIVE = 'AdultSite';

/** The Search page folds its filters behind one control: open it, then find the sensitive filter. */
async function sensitiveFilter(): Promise<HTMLElement> {
  await userEvent.setup().click(await screen.findByRole('button', { name: /^Filters and options/ }));
  return screen.findByRole('combobox', { name: 'Sensitive' });
}

describe('sensitive breaches: hidden unless the person opts in', () => {
  test('Fix: not listed, and a note says one is not shown, linking to Settings', async () => {
    renderApp({ hash: '#/fix' });
    await screen.findByRole('heading', { level: 1, name: 'Fix step by step' });
    await settle();
    expect(document.body).not.toHaveTextContent(SENSITIVE);
    const note = screen.getByText(/1 sensitive breach is not shown here/);
    expect(within(note).getByRole('link', { name: 'Show sensitive breaches in Settings' })).toHaveAttribute('href', '#/settings');
    await expectAccessible();
  });

  test('Reports: the preview and the note', async () => {
    renderApp({ hash: '#/reports' });
    await screen.findByRole('heading', { level: 1, name: 'Reports' });
    await settle();
    expect(document.body).not.toHaveTextContent(SENSITIVE);
    expect(screen.getByText(/1 sensitive breach is not shown here/)).toBeInTheDocument();
  });

  test('Overview: counted only as “not shown”, the figure linking to the setting', async () => {
    renderApp({ hash: '#/overview' });
    const kpi = await screen.findByRole('link', { name: /^Breaches\s*3\s*1 sensitive one not shown$/ });
    expect(kpi).toHaveAttribute('href', '#/settings');
  });

  test('Search: “Sensitive” is “Not sensitive” and says why; opted in, it is “Any”', async () => {
    renderApp({ hash: '#/search' });
    const select = await sensitiveFilter();
    expect(select).toHaveValue('exclude');
    expect(select).toBeDisabled();
    expect(select).toHaveAccessibleDescription(/Sensitive breaches are hidden/);
  });

  test('Search, opted in: “Any” by default, and it can be changed', async () => {
    renderApp({ hash: '#/search', settings: { showSensitive: true } });
    const select = await sensitiveFilter();
    expect(select).toHaveValue('any');
    expect(select).toBeEnabled();
  });

  test('one setting in Settings turns them on everywhere', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/settings' });
    const box = await screen.findByRole('checkbox', { name: 'Show sensitive breaches' });
    expect(box).not.toBeChecked();
    expect(box).toHaveAccessibleDescription(/left out everywhere: the list, banners, notifications, the tray, Fix, Search, the Overview, the graph and reports/);
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText(/saved/i);
    expect(core.settings.showSensitive).toBe(true);
    await user.click(screen.getByRole('navigation', { name: 'Main' }).querySelector('a[href^="#/fix"]') as HTMLElement);
    await screen.findByRole('heading', { level: 1, name: 'Fix step by step' });
    await settle();
    expect(document.body).toHaveTextContent(SENSITIVE);
    expect(screen.queryByText(/sensitive breach is not shown here/)).toBeNull();
  });
});
