// A dedicated worker (browser host only): asks the core for the whole report over the browser
// host's HTTP API, parses it and summarizes it here, and posts back only the summary. The report of
// a heavy account is a megabyte; parsed on the page's thread it held that thread for tens of
// milliseconds right after the overview drew, just when a person clicks on (docs/decisions.md).
import { IpcError } from '../../shared/ipc/protocol.ts';
import type { Report } from '../../shared/report/report.ts';
import { createHttpMonitor } from './httpMonitor.ts';
import { summarizeReport, type NextStepsSummary } from './nextSteps.ts';

/** What the page asks: its session token (a worker has no sessionStorage) and the time "this week" is counted from. */
export interface NextStepsRequest {
  id: number;
  secret: string | null;
  now: number;
}

export type NextStepsAnswer = { id: number; ok: true; summary: NextStepsSummary } | { id: number; ok: false; error: IpcError };

const scope = globalThis as unknown as { onmessage: ((event: { data: NextStepsRequest }) => void) | null; postMessage(answer: NextStepsAnswer): void };

scope.onmessage = ({ data: { id, secret, now } }) => {
  const monitor = createHttpMonitor({ getSecret: () => secret });
  monitor.invoke('report-get', {}).then(
    (report) => scope.postMessage({ id, ok: true, summary: summarizeReport(report as Report, now) }),
    (error: unknown) => scope.postMessage({ id, ok: false, error: asIpcError(error) }),
  );
};

/** The monitor rejects with `{code, message}`; anything else (a bug in the summary) says so in the same shape. */
function asIpcError(error: unknown): IpcError {
  const parsed = IpcError.safeParse(error);
  if (parsed.success) return parsed.data;
  return { code: 'internal', message: error instanceof Error ? error.message : 'The report could not be summarized.' };
}
