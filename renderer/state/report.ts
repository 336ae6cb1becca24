import { create } from 'zustand';
import type { Report } from '../../shared/report/report.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface ReportStore {
  report?: Report;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  reset(): void;
}

let sequence = 0;

/** Everything the person has (breaches × emails × data classes): the guided fix, "what to do next" and the exports read it. */
export const useReport = create<ReportStore>()((set) => ({
  loading: false,
  async load() {
    const mine = ++sequence;
    set({ loading: true, error: undefined });
    try {
      const report = await invoke('report-get', {});
      if (mine === sequence) set({ report, loading: false });
    } catch (error) {
      if (mine === sequence) set({ error: toUiError(error).message, loading: false });
    }
  },
  reset() {
    sequence++;
    set({ report: undefined, error: undefined, loading: false });
  },
}));
