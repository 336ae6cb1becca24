import { create } from 'zustand';
import type { ChannelInput } from '../../shared/ipc/contract.ts';
import type { Report } from '../../shared/report/report.ts';
import { onAccountChange } from '../lib/accountScope.ts';
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

onAccountChange(() => useReport.getState().reset());

/**
 * The guided fix's "done": one outbox record for every listed (breach, emails, classes); the
 * data-changed event that follows refreshes the report and the other views.
 */
export function applyFix(intents: ChannelInput<'fix-apply'>['intents']): Promise<{ changed: number }> {
  return invoke('fix-apply', { intents });
}

/** The printable report as a PDF through the desktop host (a save dialog places it). */
export function saveReportPdf(fileName: string): Promise<{ saved: boolean; file?: string }> {
  return invoke('report-save-pdf', { fileName });
}
