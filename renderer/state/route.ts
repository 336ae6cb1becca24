import { create } from 'zustand';
import { onAccountChange } from '../lib/accountScope.ts';
import { EMPTY_FILTERS, formatHash, parseHash, type Filters, type Route, type Screen } from '../lib/urlState.ts';

interface RouteStore {
  route: Route;
  /** Push a history entry (screens, opening a breach) or replace it (filter edits, typing). */
  navigate(route: Route, options?: { replace?: boolean }): void;
  go(screen: Screen): void;
  openBreach(id: string | undefined): void;
  setFilters(update: Partial<Filters>): void;
  /** Every filter back to its default; the sort order stays, it is a preference. */
  clearFilters(): void;
  /** Re-read the location (back/forward, a hand-edited URL). */
  sync(): void;
}

export const useRoute = create<RouteStore>()((set, get) => ({
  route: parseHash(window.location.hash),
  navigate(route, options = {}) {
    const hash = formatHash(route);
    if (hash !== window.location.hash) {
      if (options.replace) window.history.replaceState(window.history.state, '', hash);
      else window.history.pushState(null, '', hash);
    }
    set({ route: parseHash(hash) });
  },
  go(screen) {
    const { route } = get();
    get().navigate({ ...route, screen, breachId: screen === 'breaches' ? route.breachId : undefined });
  },
  openBreach(id) {
    const { route } = get();
    get().navigate({ ...route, screen: 'breaches', breachId: id }, { replace: route.screen === 'breaches' && route.breachId !== undefined && id !== undefined });
  },
  setFilters(update) {
    const { route } = get();
    get().navigate({ ...route, filters: { ...route.filters, ...update } }, { replace: true });
  },
  clearFilters() {
    const { route } = get();
    get().navigate({ ...route, filters: { ...EMPTY_FILTERS, sort: route.filters.sort } }, { replace: true });
  },
  sync() {
    const next = parseHash(window.location.hash);
    if (formatHash(next) !== formatHash(get().route)) set({ route: next });
  },
}));

// Filters (an email among them), the open breach and the graph's query are the person's: the
// next account starts at the overview with no filters. The history entry is replaced, so Back
// does not lead into the previous account's place either.
onAccountChange(() => useRoute.getState().navigate({ screen: 'overview', filters: EMPTY_FILTERS }, { replace: true }));

/** Follows back/forward and hand-edited URLs; returns the cleanup. */
export function startRouter(): () => void {
  const onChange = () => useRoute.getState().sync();
  window.addEventListener('hashchange', onChange);
  window.addEventListener('popstate', onChange);
  useRoute.getState().sync();
  return () => {
    window.removeEventListener('hashchange', onChange);
    window.removeEventListener('popstate', onChange);
  };
}
