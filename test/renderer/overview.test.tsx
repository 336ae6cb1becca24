// @vitest-environment jsdom
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test } from 'vitest';
import { fillYears } from '../../renderer/features/overview/OverviewPage.tsx';
import { loadInitial } from '../../renderer/state/connect.ts';
import { loadOverviewForFirstScreen } from '../../renderer/state/overview.ts';
import { ALICE, BOB, FakeCore } from './fakeCore.ts';
import { expectAccessible, renderApp } from './setup.tsx';

/**
 * jsdom lays nothing out, so it has no IntersectionObserver; this stands in with the part of the
 * interface the app uses (W3C Intersection Observer: observe, disconnect, a callback given the
 * entries whose intersection changed), and lets the test say when an element comes into view.
 */
function installIntersectionObserver() {
  const live = new Set<FakeObserver>();
  class FakeObserver {
    readonly targets = new Set<Element>();
    readonly callback: (entries: Partial<IntersectionObserverEntry>[], observer: FakeObserver) => void;
    constructor(callback: FakeObserver['callback']) {
      this.callback = callback;
      live.add(this);
    }
    observe(target: Element) {
      this.targets.add(target);
    }
    unobserve(target: Element) {
      this.targets.delete(target);
    }
    disconnect() {
      this.targets.clear();
      live.delete(this);
    }
    takeRecords() {
      return [];
    }
  }
  const original = Object.getOwnPropertyDescriptor(window, 'IntersectionObserver');
  Object.defineProperty(window, 'IntersectionObserver', { configurable: true, writable: true, value: FakeObserver });
  restore.push(() => (original ? Object.defineProperty(window, 'IntersectionObserver', original) : delete (window as { IntersectionObserver?: unknown }).IntersectionObserver));
  return {
    watched: () => [...live].flatMap((observer) => [...observer.targets]),
    scrollTo(target: Element) {
      for (const observer of [...live]) if (observer.targets.has(target)) observer.callback([{ target, isIntersecting: true, intersectionRatio: 0.1 }], observer);
    },
  };
}

const restore: (() => void)[] = [];
afterEach(() => restore.splice(0).forEach((undo) => undo()));

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

  test('"Fixed per week" keeps its room while the summary of the report is on its way, so the cards below do not move', async () => {
    const core = new FakeCore({});
    const release = core.hold('report-summary');
    renderApp({ core, hash: '#/overview' });
    const card = await screen.findByRole('region', { name: 'Fixed per week' });
    // Already in place while the report is held, and saying it is loading.
    expect(card).toHaveAttribute('aria-busy', 'true');
    expect(within(card).queryByRole('table')).toBeNull();
    release();
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Fixed per week' })).getByRole('table', { name: 'Items fixed per week' })).toBeInTheDocument());
    expect(screen.getByRole('region', { name: 'Fixed per week' })).not.toHaveAttribute('aria-busy');
  });

  test('"What to do next" says so when its summary fails, and asks again on request', async () => {
    const user = userEvent.setup();
    const core = new FakeCore({});
    core.failures.set('report-summary', { code: 'internal', message: 'The local database is locked.' });
    renderApp({ core, hash: '#/overview' });
    const card = await screen.findByRole('region', { name: 'What to do next' });
    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('The next step couldn’t be worked out: The local database is locked.');
    // "Fixed per week" comes from the same summary: it steps aside rather than wait.
    expect(screen.queryByRole('region', { name: 'Fixed per week' })).toBeNull();
    await expectAccessible();
    core.failures.delete('report-summary');
    await user.click(within(card).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(card).queryByRole('alert')).toBeNull());
    expect(await within(card).findByRole('link', { name: /^Start with/ })).toBeInTheDocument();
    expect(core.callsOf('report-summary')).toHaveLength(2);
  });

  test('the chart below the fold is fetched and drawn only once its card scrolls into view', async () => {
    const viewport = installIntersectionObserver();
    renderApp({ hash: '#/overview' });
    const card = (await screen.findByRole('heading', { name: 'Breaches over time' })).closest('section')!;
    await waitFor(() => expect(viewport.watched()).toContain(card));
    // The browser is idle now, yet nothing of the chart is drawn: the card is out of view.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(card.querySelector('.chart svg, .skeleton')).toBeNull();
    expect(card.querySelector('.chart')).toHaveAttribute('data-waiting', 'until-seen');
    // The numbers are there all along, for screen readers.
    expect(within(card).getByRole('table', { name: 'Breaches per year' })).toBeInTheDocument();
    act(() => viewport.scrollTo(card));
    await waitFor(() => expect(card.querySelector('.chart:not([data-waiting])')).not.toBeNull());
    expect(viewport.watched()).toEqual([]);
  });

  test('an overview asked for the first screen before the first render is drawn at once and not asked again; the next opening asks', async () => {
    const user = userEvent.setup();
    const core = new FakeCore({});
    window.monitor = core;
    // As main.tsx does when the overview is the first screen: asked with the first answers, before anything draws.
    await Promise.all([loadInitial(), loadOverviewForFirstScreen()]);
    expect(core.callsOf('overview-get')).toHaveLength(1);
    renderApp({ core, hash: '#/overview' });
    // The figures are there in the first frame: no skeleton first.
    expect(screen.getByRole('heading', { name: 'Unresolved by data class' })).toBeInTheDocument();
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(core.callsOf('overview-get')).toHaveLength(1);
    // Opened again later: asked again, as every opening but the first screen's.
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^Breaches/ }));
    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: /^Overview/ }));
    await waitFor(() => expect(core.callsOf('overview-get')).toHaveLength(2));
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
