import { create } from 'zustand';
import type { Overview } from '../../shared/ipc/views.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface OverviewStore {
  overview?: Overview;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  /**
   * What the overview page asks as it opens: a new answer, unless the entry point asked for the
   * first screen's overview before the page first drew ({@link loadOverviewForFirstScreen}); the
   * page's first opening then takes that load instead of asking again.
   */
  loadOnShow(): Promise<void>;
  reset(): void;
}

let sequence = 0;
/** The overview asked for the first screen, until the page's first opening takes it. */
let firstScreenLoad: Promise<void> | undefined;

export const useOverview = create<OverviewStore>()((set, get) => ({
  loading: false,
  async load() {
    const mine = ++sequence;
    set({ loading: true, error: undefined });
    try {
      const overview = await invoke('overview-get', {});
      if (mine === sequence) set({ overview, loading: false });
    } catch (error) {
      if (mine === sequence) set({ error: toUiError(error).message, loading: false });
    }
  },
  loadOnShow() {
    const early = firstScreenLoad;
    firstScreenLoad = undefined;
    return early ?? get().load();
  },
  reset() {
    sequence++;
    firstScreenLoad = undefined;
    set({ overview: undefined, error: undefined, loading: false });
  },
}));

onAccountChange(() => useOverview.getState().reset());

/**
 * Asks for the overview before the first render, when it is the first screen (`main.tsx`, with
 * the first answers): the page then draws its figures in its first frame rather than a skeleton
 * first and the figures one render later.
 */
export function loadOverviewForFirstScreen(): Promise<void> {
  const load = useOverview.getState().load();
  firstScreenLoad = load;
  return load;
}
