import { create } from 'zustand';
import type { Overview } from '../../shared/ipc/views.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface OverviewStore {
  overview?: Overview;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  reset(): void;
}

let sequence = 0;

export const useOverview = create<OverviewStore>()((set) => ({
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
  reset() {
    sequence++;
    set({ overview: undefined, error: undefined, loading: false });
  },
}));

onAccountChange(() => useOverview.getState().reset());
