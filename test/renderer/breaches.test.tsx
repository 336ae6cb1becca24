// @vitest-environment jsdom
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { FIRST_WINDOW } from '../../renderer/lib/firstRows.ts';
import { formatDate } from '../../renderer/lib/format.ts';
import { EMPTY_FILTERS, toListQuery } from '../../renderer/lib/urlState.ts';
import type { BreachList } from '../../shared/ipc/views.ts';
import { FakeCore, manyBreaches } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

function lastListQuery(core: FakeCore): Record<string, unknown> {
  const calls = core.callsOf('breaches-list');
  return calls[calls.length - 1] as Record<string, unknown>;
}

describe('breaches list', () => {
  test('rows with their facts, and the counts line', async () => {
    renderApp({ hash: '#/breaches' });
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    const options = within(list).getAllByRole('option');
    // The sensitive breach is hidden by default: 3 of 4.
    expect(options).toHaveLength(3);
    expect(options[0]).toHaveAccessibleName(`Canva, canva.com, breached ${formatDate('2019-05-24')}, 5 unresolved, new`);
    expect(screen.getByText('3 breaches · 2 with something to fix · 1 sensitive breach hidden')).toBeInTheDocument();
    // Chips say their state in words, not colour alone.
    const adobe = screen.getByRole('option', { name: /^Adobe/ });
    expect(adobe).toHaveAccessibleDescription(/Email addresses, resolved for 1 of 2 emails/);
    expect(adobe).toHaveAccessibleDescription(/Passwords, unresolved/);
    expect(screen.getByRole('link', { name: /Have I Been Pwned/ })).toHaveAttribute('href', 'https://haveibeenpwned.com');
    await expectAccessible();
  });

  test('opened on the overview, the shell asks for the list once; Breaches then shows it without asking again', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/overview' });
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(1));
    expect(lastListQuery(core)).toMatchObject({ includeSensitive: false });
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Breaches' }));
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    expect(within(list).getAllByRole('option')).toHaveLength(3);
    expect(core.callsOf('breaches-list')).toHaveLength(1);
  });

  test("a first load of a long list: the first rows draw at once with the whole list's size, then the rest is asked once", async () => {
    const user = userEvent.setup();
    const breaches = manyBreaches(300);
    const { core } = renderApp({ hash: '#/overview', breaches });
    // The shell asks for the first rows only, while the overview shows.
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(1));
    expect(lastListQuery(core)).toMatchObject({ offset: 0, limit: FIRST_WINDOW });
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Breaches' }));
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    const total = String(breaches.filter((stored) => !stored.breach.isSensitive).length);
    expect(within(list).getAllByRole('option')[0]).toHaveAttribute('aria-setsize', total);
    // Then the whole list, once: the last row can be reached.
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(2));
    expect(core.callsOf('breaches-list')[1]).toEqual(toListQuery(EMPTY_FILTERS));
    act(() => list.focus());
    fireEvent.keyDown(list, { key: 'End' });
    await waitFor(() => expect(document.getElementById(list.getAttribute('aria-activedescendant') ?? '')).toHaveAttribute('aria-posinset', total));
  });

  test('a filter change on a long list: the first rows of the new answer draw at once, then the whole list is asked once', async () => {
    const user = userEvent.setup();
    const core = new FakeCore({ breaches: manyBreaches(300) });
    const filtered = toListQuery({ ...EMPTY_FILTERS, dataClasses: ['Phone numbers'] });
    // What the core answers for the new filters, asked aside before the app runs.
    const answer = (await core.invoke('breaches-list', filtered)) as BreachList;
    core.calls.length = 0;
    expect(answer.total).toBeGreaterThan(FIRST_WINDOW);
    renderApp({ hash: '#/breaches', core });
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(2));
    const everything = within(list).getAllByRole('option')[0]!.getAttribute('aria-setsize');
    expect(everything).not.toBe(String(answer.total));

    // The whole new list is held back: what shows meanwhile is the new answer's beginning.
    const release = core.hold('breaches-list', (args) => (args as { limit: number }).limit > FIRST_WINDOW);
    await user.click(screen.getByRole('button', { name: /^Data classes/ }));
    await user.click(within(screen.getByRole('group', { name: 'Data classes' })).getByRole('checkbox', { name: 'Phone numbers' }));
    await waitFor(() => expect(within(list).getAllByRole('option')[0]).toHaveAttribute('aria-setsize', String(answer.total)));
    expect(within(list).getAllByRole('option')[0]).toHaveAccessibleName(new RegExp(`^${answer.rows[0]!.breach.id}, `));
    // Counts that need every row wait for them; the total does not.
    expect(screen.getByText(new RegExp(`^${answer.total} breaches`))).toBeInTheDocument();
    // The whole list is asked once the person pauses.
    await waitFor(() => expect(core.callsOf('breaches-list').slice(2)).toEqual([{ ...filtered, limit: FIRST_WINDOW }, filtered]));

    release();
    await user.keyboard('{Escape}');
    act(() => list.focus());
    fireEvent.keyDown(list, { key: 'End' });
    await waitFor(() => expect(document.getElementById(list.getAttribute('aria-activedescendant') ?? '')).toHaveAttribute('aria-posinset', String(answer.total)));
    expect(core.callsOf('breaches-list')).toHaveLength(4);
  });

  test('filters ticked one after another each draw their first rows; only the last builds the whole list', async () => {
    const user = userEvent.setup();
    const core = new FakeCore({ breaches: manyBreaches(300) });
    renderApp({ hash: '#/breaches', core });
    await screen.findByRole('listbox', { name: 'Breaches' });
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: /^Data classes/ }));
    const panel = screen.getByRole('group', { name: 'Data classes' });
    const one = (await core.invoke('breaches-list', toListQuery({ ...EMPTY_FILTERS, dataClasses: ['Phone numbers'] }))) as BreachList;
    core.calls.pop(); // asked aside, not by the app
    await user.click(within(panel).getByRole('checkbox', { name: 'Phone numbers' }));
    // Its first rows are drawn; the next tick comes before the person pauses.
    const list = screen.getByRole('listbox', { name: 'Breaches' });
    await waitFor(() => expect(within(list).getAllByRole('option')[0]).toHaveAttribute('aria-setsize', String(one.total)));
    await user.click(within(panel).getByRole('checkbox', { name: 'Dates of birth' }));
    const both = toListQuery({ ...EMPTY_FILTERS, dataClasses: ['Phone numbers', 'Dates of birth'] });
    await waitFor(() => expect(core.callsOf('breaches-list').slice(2)).toContainEqual(both));
    expect(core.callsOf('breaches-list').slice(2)).toEqual([{ ...toListQuery({ ...EMPTY_FILTERS, dataClasses: ['Phone numbers'] }), limit: FIRST_WINDOW }, { ...both, limit: FIRST_WINDOW }, both]);
  });

  test('a reload of the same filters (data changed) keeps the rows on screen until the whole new list is in: no first rows alone', async () => {
    const core = new FakeCore({ breaches: manyBreaches(300) });
    renderApp({ hash: '#/breaches', core });
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(2));
    await waitFor(() => expect(list.querySelector('.breach-row-placeholder')).toBeNull());
    const release = core.hold('breaches-list');
    act(() => core.emit('data-changed', { reason: 'sync', revision: 99 }));
    await waitFor(() => expect(core.callsOf('breaches-list')).toHaveLength(3));
    expect(core.callsOf('breaches-list')[2]).toEqual(toListQuery(EMPTY_FILTERS));
    release();
  });

  test('opened on the list, no prefetch: the page asks once', async () => {
    const { core } = renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    expect(core.callsOf('breaches-list')).toHaveLength(1);
  });

  test('"Include sensitive breaches" is off by default; ticking it re-queries and lands in the URL', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    const box = await screen.findByRole('checkbox', { name: 'Include sensitive breaches' });
    expect(box).not.toBeChecked();
    expect(lastListQuery(core).includeSensitive).toBe(false);
    await user.click(box);
    await waitFor(() => expect(lastListQuery(core).includeSensitive).toBe(true));
    expect(window.location.hash).toBe('#/breaches?includeSensitive=true');
    expect(await screen.findByText(/^4 breaches/)).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /^AdultSite, .*sensitive/ })).toBeInTheDocument();
  });

  test('data class filters (any of) and unresolved data classes go to the query and the URL', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    await user.click(await screen.findByRole('button', { name: /^Data classes/ }));
    const panel = screen.getByRole('group', { name: 'Data classes' });
    await user.click(within(panel).getByRole('checkbox', { name: 'Usernames' }));
    await user.click(within(panel).getByRole('checkbox', { name: 'Geographic locations' }));
    await waitFor(() => expect(lastListQuery(core).dataClasses).toEqual(['Usernames', 'Geographic locations']));
    expect(window.location.hash).toBe('#/breaches?dataClasses=Usernames&dataClasses=Geographic+locations');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Data classes' })).toBeNull();
    expect(screen.getByRole('button', { name: /^Data classes/ })).toHaveFocus();
    expect(await screen.findByText(/^2 breaches · 2 with unresolved Usernames/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Unresolved data classes/ }));
    await user.click(within(screen.getByRole('group', { name: 'Unresolved data classes' })).getByRole('checkbox', { name: 'Passwords' }));
    await waitFor(() => expect(lastListQuery(core).unresolvedDataClasses).toEqual(['Passwords']));
    expect(window.location.hash).toContain('unresolvedDataClasses=Passwords');

    // The active filters are listed and removable one by one.
    await user.click(screen.getByRole('button', { name: 'Remove data class filter Usernames' }));
    await waitFor(() => expect(lastListQuery(core).dataClasses).toEqual(['Geographic locations']));
  });

  test('domain (with suggestions), text search and sort re-query', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    const domain = await screen.findByRole('combobox', { name: 'Domain' });
    await waitFor(() => expect(document.querySelectorAll('datalist option')).toHaveLength(4));
    await user.type(domain, 'adobe.com');
    await waitFor(() => expect(lastListQuery(core).domainContains).toBe('adobe.com'));
    expect(await screen.findByText(/^1 breach\b/)).toBeInTheDocument();
    await user.clear(domain);
    await waitFor(() => expect(lastListQuery(core).domainContains).toBeUndefined());

    await user.type(screen.getByRole('searchbox', { name: 'Search breaches' }), 'link');
    await waitFor(() => expect(lastListQuery(core).text).toBe('link'));
    expect(window.location.hash).toBe('#/breaches?text=link');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'name');
    await waitFor(() => expect(lastListQuery(core).sort).toBe('name'));
    expect(window.location.hash).toBe('#/breaches?text=link&sort=name');
  });

  test('the advanced filter: a metadata filter checked by the filter engine, errors naming where, then applied', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    await user.click(screen.getByText('Advanced filter'));
    const field = screen.getByRole('textbox', { name: 'Metadata filter (JSON)' });
    const calls = core.callsOf('breaches-list').length;

    // Not JSON, then JSON the engine refuses: each problem with its pointer, nothing sent.
    fireEvent.change(field, { target: { value: '{"dataClasses": ' } });
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    expect(await screen.findByRole('alert', { name: 'Problems with the advanced filter' })).toHaveTextContent(/not valid JSON/);
    fireEvent.change(field, { target: { value: '{"breachDate": {"$gte": "2015"}, "colour": "red"}' } });
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() => expect(screen.getByRole('alert', { name: 'Problems with the advanced filter' })).toHaveTextContent(/\/breachDate\/\$gte: .*seconds/));
    expect(screen.getByRole('alert', { name: 'Problems with the advanced filter' })).toHaveTextContent(/\/colour: unknown field "colour"/);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(core.callsOf('breaches-list')).toHaveLength(calls);

    // Breached since 2015 (seconds), not on canva.com: none of the chips can say that.
    fireEvent.change(field, { target: { value: '{"breachDate": {"$gte": 1420070400}, "domain": {"$ne": "canva.com"}}' } });
    await user.click(screen.getByRole('button', { name: 'Apply filter' }));
    await waitFor(() => expect(lastListQuery(core).metadataFilter).toEqual({ breachDate: { $gte: 1420070400 }, domain: { $ne: 'canva.com' } }));
    expect(await screen.findByRole('heading', { name: 'No breaches match these filters' })).toBeInTheDocument();
    expect(window.location.hash).toContain('filter=');
    await user.click(screen.getByRole('checkbox', { name: 'Include sensitive breaches' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('listbox', { name: 'Breaches' }))
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual([expect.stringMatching(/^AdultSite/)]),
    );
    await expectAccessible();

    // Listed among the active filters, as sent; removable there or under the field.
    expect(screen.getByRole('button', { name: 'Remove advanced filter {"breachDate":{"$gte":1420070400},"domain":{"$ne":"canva.com"}}' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove advanced filter' }));
    await waitFor(() => expect(lastListQuery(core).metadataFilter).toBeUndefined());
  });

  test('filters in the URL survive a reload', async () => {
    const { core } = renderApp({ hash: '#/breaches?dataClasses=Passwords&includeSensitive=true&sort=unresolved' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    expect(lastListQuery(core)).toMatchObject({ dataClasses: ['Passwords'], includeSensitive: true, sort: 'unresolved' });
    expect(screen.getByRole('checkbox', { name: 'Include sensitive breaches' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('unresolved');
  });

  test('keyboard: "/" focuses search, arrows move, Enter opens, Escape closes', async () => {
    const user = userEvent.setup();
    renderApp({ hash: '#/breaches' });
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    await user.keyboard('/');
    expect(screen.getByRole('searchbox', { name: 'Search breaches' })).toHaveFocus();

    act(() => list.focus());
    await user.keyboard('{ArrowDown}');
    const active = () => document.getElementById(list.getAttribute('aria-activedescendant') ?? '');
    expect(active()).toHaveAccessibleName(/^Adobe/);
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('heading', { level: 2, name: 'Adobe' })).toBeInTheDocument();
    expect(window.location.hash).toBe('#/breaches/Adobe');
    await user.keyboard('{End}');
    expect(active()).toHaveAccessibleName(/^LinkedIn/);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('heading', { level: 2, name: 'Adobe' })).toBeNull());
    expect(window.location.hash).toBe('#/breaches');
    expect(list).toHaveFocus();
  });

  test('thousands of rows: only a window of them is in the DOM', async () => {
    renderApp({ hash: '#/breaches', breaches: manyBreaches(5000) });
    const list = await screen.findByRole('listbox', { name: 'Breaches' });
    expect(await screen.findByText(/^4,900 breaches/)).toBeInTheDocument();
    const rendered = within(list).getAllByRole('option');
    expect(rendered.length).toBeGreaterThan(5);
    expect(rendered.length).toBeLessThan(40);
    expect(rendered[0]).toHaveAttribute('aria-setsize', '4900');
    // End jumps to the last row, which gets rendered.
    act(() => list.focus());
    fireEvent.keyDown(list, { key: 'End' });
    await waitFor(() => expect(document.getElementById(list.getAttribute('aria-activedescendant') ?? '')).toHaveAttribute('aria-posinset', '4900'));
  });

  test('empty and error states are designed', async () => {
    const user = userEvent.setup();
    const { core } = renderApp({ hash: '#/breaches?domain=nothing.example' });
    expect(await screen.findByRole('heading', { name: 'No breaches match these filters' })).toBeInTheDocument();
    await expectAccessible();
    core.failures.set('breaches-list', { code: 'internal', message: 'The local database is locked.' });
    await user.click(screen.getByRole('button', { name: 'Show all breaches' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The list couldn’t be refreshed: The local database is locked.');
  });

  test('data-changed from the core re-queries without blanking the list', async () => {
    const { core } = renderApp({ hash: '#/breaches' });
    await screen.findByRole('listbox', { name: 'Breaches' });
    const before = core.callsOf('breaches-list').length;
    act(() => core.emit('data-changed', { reason: 'sync', revision: 99 }));
    expect(screen.getByRole('listbox', { name: 'Breaches' })).toBeInTheDocument();
    await waitFor(() => expect(core.callsOf('breaches-list').length).toBeGreaterThan(before));
  });
});
