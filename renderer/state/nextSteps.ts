import { create } from 'zustand';
import type { ReportSummary } from '../../shared/report/summary.ts';
import { accountTicket, onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface NextStepsStore {
  summary?: ReportSummary;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  reset(): void;
}

let sequence = 0;

/**
 * The overview's "What to do next" and "Fixed per week": a summary of the whole report, made in
 * the core (`report-summary`), so the megabyte of a heavy account's report never crosses to the
 * page nor holds its thread while it is parsed.
 */
export const useNextSteps = create<NextStepsStore>()((set) => ({
  loading: false,
  async load() {
    const mine = ++sequence;
    const ticket = accountTicket();
    const current = () => mine === sequence && ticket.current();
    set({ loading: true, error: undefined });
    try {
      const summary = await invoke('report-summary', {});
      if (current()) set({ summary, loading: false });
    } catch (error) {
      if (current()) set({ error: toUiError(error).message, loading: false });
    }
  },
  reset() {
    sequence++;
    set({ summary: undefined, error: undefined, loading: false });
  },
}));

onAccountChange(() => useNextSteps.getState().reset());
