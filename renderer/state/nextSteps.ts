import { create } from 'zustand';
import { accountTicket, onAccountChange } from '../lib/accountScope.ts';
import { inBrowserHost, invoke, toUiError } from '../lib/core.ts';
import { SECRET_STORAGE_KEY } from '../lib/httpMonitor.ts';
import { summarizeReport, type NextStepsSummary } from '../lib/nextSteps.ts';
import type { NextStepsAnswer, NextStepsRequest } from '../lib/nextSteps.worker.ts';

interface NextStepsStore {
  summary?: NextStepsSummary;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  reset(): void;
}

let sequence = 0;

/**
 * The overview's "What to do next" and "Fixed per week": a summary of the whole report. In a web
 * browser (the browser host) a worker asks for the report, parses and summarizes it, so the
 * megabyte of a heavy account never holds the page's thread; under Electron the preload's bridge
 * hands over the report already parsed, and it is summarized here.
 */
export const useNextSteps = create<NextStepsStore>()((set) => ({
  loading: false,
  async load() {
    const mine = ++sequence;
    const ticket = accountTicket();
    const current = () => mine === sequence && ticket.current();
    set({ loading: true, error: undefined });
    try {
      const summary = canUseWorker() ? await summaryFromWorker() : summarizeReport(await invoke('report-get', {}), Date.now());
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

function canUseWorker(): boolean {
  return typeof Worker === 'function' && inBrowserHost();
}

let worker: Worker | undefined;
let nextId = 0;
const waiting = new Map<number, { resolve(summary: NextStepsSummary): void; reject(error: unknown): void }>();

function summaryFromWorker(): Promise<NextStepsSummary> {
  if (!worker) {
    worker = new Worker(new URL('../lib/nextSteps.worker.ts', import.meta.url), { type: 'module', name: 'next-steps' });
    worker.onmessage = ({ data }: MessageEvent<NextStepsAnswer>) => {
      const asked = waiting.get(data.id);
      waiting.delete(data.id);
      if (data.ok) asked?.resolve(data.summary);
      else asked?.reject(data.error);
    };
    // The worker's file could not be loaded or it failed outright: every question waiting fails
    // with it, and the next load (the next data change or visit) starts a new worker.
    worker.onerror = (event) => {
      event.preventDefault();
      worker?.terminate();
      worker = undefined;
      for (const asked of waiting.values()) asked.reject({ code: 'internal', message: 'The summary of your breaches could not be made in this window.' });
      waiting.clear();
    };
  }
  const id = ++nextId;
  const request: NextStepsRequest = { id, secret: sessionStorage.getItem(SECRET_STORAGE_KEY), now: Date.now() };
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    worker!.postMessage(request);
  });
}
