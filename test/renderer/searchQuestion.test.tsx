// @vitest-environment jsdom
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { expectAccessible, renderApp } from './setup.tsx';

// The Search page reads its own question: the placeholder's data class and date become chips that
// can be removed, "Show filter" shows dates as dates. Ranking and counting run on the real core
// in Chromium (test/e2e/search.e2e.test.ts), the understanding itself in
// test/shared/search/understandQuery.test.ts.
const PLACEHOLDER = 'which of my breaches leaked passwords after 2020?';

async function openSearch() {
  const user = userEvent.setup();
  // Opted in to sensitive breaches (the one sensitive policy otherwise adds "not sensitive"), and
  // Sensitive at "Any": the filters shown below are the question's alone.
  renderApp({ hash: '#/search', settings: { showSensitive: true } });
  const box = await screen.findByRole('searchbox', { name: 'Search breaches' });
  expect(box).toHaveAttribute('placeholder', `e.g. ${PLACEHOLDER}`);
  // The filter set is folded behind one control.
  const toggle = screen.getByRole('button', { name: 'Filters and options' });
  expect(toggle).toHaveAttribute('aria-expanded', 'false');
  expect(screen.queryByRole('combobox', { name: 'Sensitive' })).toBeNull();
  await user.click(toggle);
  expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Sensitive' }), 'any');
  return { user, box };
}

const understood = () => screen.queryByRole('list', { name: 'Understood from your question' });
const chipLabels = () =>
  within(understood()!)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('span')!.textContent);
const shownFilter = () => JSON.parse(screen.getByLabelText('Filter in the metadata filter format').textContent!) as unknown;

describe('search: the question understood', () => {
  test('the placeholder question becomes the chips "Passwords" and "After 2020", with no words left to rank', async () => {
    const { user, box } = await openSearch();
    expect(understood()).toBeNull();
    await user.type(box, PLACEHOLDER);
    expect(chipLabels()).toEqual(['Passwords', 'After 2020']);
    expect(screen.getByText('No words left to rank: the filters decide.')).toBeInTheDocument();
    // The same chips the page always had show what applies.
    expect(within(screen.getByRole('group', { name: 'Data classes' })).getByRole('checkbox', { name: 'Passwords' })).toBeChecked();
    expect(screen.getByLabelText('Breached from')).toHaveValue('2021-01-01');
    expect(screen.getByLabelText('Breached until')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Passwords'] }, breachDate: { $gte: '2021-01-01' } });
    expect(screen.getByLabelText('Filter in the metadata filter format')).toHaveAccessibleDescription('Dates are shown as days (UTC); the filter sends them as seconds since 1970.');
    await expectAccessible();
  });

  test('a removed chip stays removed while the question says it, and comes back when it is said again', async () => {
    const { user, box } = await openSearch();
    await user.type(box, PLACEHOLDER);
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    await user.click(screen.getByRole('button', { name: 'Remove After 2020' }));
    expect(chipLabels()).toEqual(['Passwords']);
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Passwords'] } });
    // Typing on does not bring it back…
    await user.type(box, ' adobe');
    expect(chipLabels()).toEqual(['Passwords']);
    expect(screen.getByText('Ranked by the words “adobe”.')).toBeInTheDocument();
    // …nor does unchecking the data class chip leave a chip behind.
    await user.click(within(screen.getByRole('group', { name: 'Data classes' })).getByRole('checkbox', { name: 'Passwords' }));
    expect(understood()).toBeNull();
    expect(shownFilter()).toEqual({});
    // Once the question no longer says it, saying it again brings it back.
    await user.clear(box);
    await user.type(box, 'passwords since 2019');
    expect(chipLabels()).toEqual(['Passwords', 'Since 2019']);
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Passwords'] }, breachDate: { $gte: '2019-01-01' } });
  });

  test('sensitive, domains and date ranges from the question; a control changed by hand takes over from the question', async () => {
    const { user, box } = await openSearch();
    await user.type(box, 'sensitive breaches of adobe.com between 2012 and 2014 with emails');
    expect(chipLabels()).toEqual(['Sensitive only', 'adobe.com', '2012 to 2014', 'Email addresses']);
    expect(screen.getByRole('combobox', { name: 'Sensitive' })).toHaveValue('only');
    expect(screen.getByLabelText('Breached from')).toHaveValue('2012-01-01');
    expect(screen.getByLabelText('Breached until')).toHaveValue('2014-12-31');
    await user.click(screen.getByRole('button', { name: 'Show filter' }));
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Email addresses'] }, domain: { $in: ['adobe.com'] }, breachDate: { $gte: '2012-01-01', $lt: '2015-01-01' }, isSensitive: true });

    // A new end by hand: the start the question gave stays, its chip goes.
    fireEvent.change(screen.getByLabelText('Breached until'), { target: { value: '2013-06-30' } });
    expect(chipLabels()).toEqual(['Sensitive only', 'adobe.com', 'Email addresses']);
    expect(screen.getByLabelText('Breached from')).toHaveValue('2012-01-01');
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Email addresses'] }, domain: { $in: ['adobe.com'] }, breachDate: { $gte: '2012-01-01', $lt: '2013-07-01' }, isSensitive: true });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sensitive' }), 'any');
    expect(chipLabels()).toEqual(['adobe.com', 'Email addresses']);
    expect(shownFilter()).toEqual({ dataClasses: { $in: ['Email addresses'] }, domain: { $in: ['adobe.com'] }, breachDate: { $gte: '2012-01-01', $lt: '2013-07-01' } });
    // Typing on keeps both taken over.
    await user.type(box, ' please');
    expect(chipLabels()).toEqual(['adobe.com', 'Email addresses']);
    expect(screen.getByRole('combobox', { name: 'Sensitive' })).toHaveValue('any');
  });
});
