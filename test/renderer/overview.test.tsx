// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { fillYears } from '../../renderer/features/overview/OverviewPage.tsx';
import { ALICE, BOB } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

describe('overview', () => {
  test('exposure at a glance: totals, by data class, by email, over time', async () => {
    renderApp({ settings: { showSensitive: true }, hash: '#/overview' });
    expect(await screen.findByRole('heading', { name: 'Unresolved by data class' })).toBeInTheDocument();
    // The sample's sensitive breach counts here; the link shows it too, so the list agrees (4).
    expect(screen.getByRole('link', { name: /^Breaches\s*4\s*including 1 sensitive one$/ })).toHaveAttribute('href', '#/breaches?includeSensitive=true');
    const byClass = screen.getByRole('region', { name: 'Unresolved by data class' });
    expect(within(byClass).getByRole('link', { name: 'Breaches with unresolved Passwords: 4' })).toHaveAttribute('href', '#/breaches?unresolvedDataClasses=Passwords');
    const byEmail = screen.getByRole('region', { name: 'Unresolved by email' });
    expect(within(byEmail).getByRole('link', { name: `Breaches of ${BOB}: 9` })).toHaveAttribute('href', `#/breaches?email=${encodeURIComponent(BOB)}`);
    expect(within(byEmail).getByRole('link', { name: `Breaches of ${ALICE}: 6` })).toBeInTheDocument();
    const years = screen.getByRole('table', { name: 'Breaches per year' });
    expect(within(years).getByRole('rowheader', { name: '2013' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Have I Been Pwned/ })).toBeInTheDocument();
    await expectAccessible();
  });

  test('nothing synced yet is a designed state', async () => {
    renderApp({ hash: '#/overview', breaches: [], sync: { lastSyncAt: undefined } });
    expect(await screen.findByRole('heading', { name: 'Nothing synced yet' })).toBeInTheDocument();
    await expectAccessible();
  });

  test('years without breaches still appear on the time axis', () => {
    expect(
      fillYears([
        { year: 2012, count: 1 },
        { year: 2014, count: 2 },
      ]),
    ).toEqual([
      { year: 2012, count: 1 },
      { year: 2013, count: 0 },
      { year: 2014, count: 2 },
    ]);
  });
});
