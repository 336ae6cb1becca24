import '@testing-library/jest-dom/vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, expect } from 'vitest';
import type { StoreApi } from 'zustand';
import { App } from '../../renderer/App.tsx';
import { useAuth } from '../../renderer/state/auth.ts';
import { useBreaches } from '../../renderer/state/breaches.ts';
import { useChecks } from '../../renderer/state/checks.ts';
import { useDetail } from '../../renderer/state/detail.ts';
import { useLogins } from '../../renderer/state/logins.ts';
import { useNotices } from '../../renderer/state/notices.ts';
import { useNextSteps } from '../../renderer/state/nextSteps.ts';
import { useReport } from '../../renderer/state/report.ts';
import { useOverview } from '../../renderer/state/overview.ts';
import { usePreferences } from '../../renderer/state/preferences.ts';
import { useRoute } from '../../renderer/state/route.ts';
import { useSettings } from '../../renderer/state/settings.ts';
import { useSync } from '../../renderer/state/sync.ts';
import { useTheme } from '../../renderer/state/theme.ts';
import { parseHash } from '../../renderer/lib/urlState.ts';
import { resetAccountScope } from '../../renderer/lib/accountScope.ts';
import { FakeCore, type FakeCoreOptions } from './fakeCore.ts';

// jsdom lays nothing out: give elements a viewport-sized box so the virtualized list renders
// rows, and stub the few layout APIs components call.
Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 700 });
Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 });
Element.prototype.scrollTo = function scrollTo() {};
Element.prototype.scrollIntoView = function scrollIntoView() {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

function reset<T>(store: StoreApi<T>): void {
  store.setState(store.getInitialState(), true);
}

afterEach(() => {
  cleanup();
  delete window.monitor;
  // Also forgets the list's module state (the latest filters asked, a prefetched answer).
  useBreaches.getState().reset();
  resetAccountScope();
  [useAuth, useBreaches, useChecks, useDetail, useLogins, useNextSteps, useNotices, useOverview, usePreferences, useReport, useSettings, useSync, useTheme].forEach((store) =>
    reset(store as StoreApi<unknown>),
  );
  window.history.replaceState(null, '', '/');
  useRoute.setState({ route: parseHash('') });
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

export function renderApp(options: FakeCoreOptions & { hash?: string; core?: FakeCore } = {}) {
  const core = options.core ?? new FakeCore(options);
  window.history.replaceState(null, '', `/${options.hash ?? '#/overview'}`);
  useRoute.setState({ route: parseHash(window.location.hash) });
  window.monitor = core;
  const result = render(<App searchDelayMs={0} />);
  return { core, ...result };
}

/** Zero serious or critical violations. Contrast needs real layout: it is checked in Chromium. */
export async function expectAccessible(container: Element = document.body): Promise<void> {
  const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } }, resultTypes: ['violations'] });
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export async function settle(): Promise<void> {
  await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
}
