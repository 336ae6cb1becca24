import { create } from 'zustand';
import type { ChannelInput, SearchRemote, SearchRunResult } from '../../shared/ipc/contract.ts';
import type { MetadataFilter, SearchChunk } from '../../shared/search/index.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, listen, toUiError } from '../lib/core.ts';

export type SearchEngineChoice = 'embedded' | 'remote';

export interface SearchRunState {
  requestId: string;
  status: 'running' | 'done' | 'error';
  /** Undefined until the chunks arrive (they come before any answer text). */
  chunks: SearchChunk[] | undefined;
  answerText: string;
  answerKind: 'extractive' | 'generated' | undefined;
  wantsAnswer: boolean;
  /** The filter as sent, once the core answered. */
  filters: MetadataFilter | undefined;
  /** How many results were asked for: a full page means more may match. */
  maxResults: number | undefined;
  /** How many breaches match, when the engine says (the embedded one does). */
  total?: number | undefined;
  /** The answer sentence of an aggregate question, from the same breaches as the list. */
  sentence?: string | undefined;
  error?: string;
}

export interface SearchStore {
  run?: SearchRunState;
  remote?: SearchRemote;
  dataClasses: string[];
  /** `query` is what is left to rank once the question's chips are taken out of it (SearchPage). */
  search(input: { engine: SearchEngineChoice; query: string; filters: MetadataFilter | undefined; onlyMine: boolean; answer: boolean; maxResults?: number; now?: number }): Promise<void>;
  loadRemote(): Promise<void>;
  /** Rejects with a UiError (shown next to the form). */
  saveRemote(input: ChannelInput<'search-remote-set'>): Promise<SearchRemote>;
  loadDataClasses(): Promise<void>;
  /** Forgets the run, the remote instance's view and the suggestions (another account's). */
  reset(): void;
}

let nextRequest = 1;

export const useSearch = create<SearchStore>()((set, get) => ({
  dataClasses: [],
  async search({ engine, query, filters, onlyMine, answer, maxResults, now }) {
    const requestId = `search-${Date.now().toString(36)}-${nextRequest++}`;
    set({ run: { requestId, status: 'running', chunks: undefined, answerText: '', answerKind: undefined, wantsAnswer: answer, filters, maxResults } });
    const update = (change: Partial<SearchRunState>) => {
      const run = get().run;
      if (run?.requestId === requestId) set({ run: { ...run, ...change } });
    };
    // Stream: chunks first, then the answer as it grows; only this run's events.
    const stop = listen('search-event', ({ requestId: id, event }) => {
      if (id !== requestId) return;
      if (event.type === 'chunks') update({ chunks: event.chunks, answerKind: event.answerKind, total: event.total, sentence: event.sentence });
      else update({ answerText: (get().run?.answerText ?? '') + event.text });
    });
    try {
      const result: SearchRunResult = await invoke('search-run', {
        requestId,
        engine,
        query,
        ...(filters ? { filters } : {}),
        onlyMine,
        answer,
        ...(maxResults ? { maxResults } : {}),
        ...(now !== undefined ? { now } : {}),
      });
      update({
        status: 'done',
        chunks: result.chunks,
        answerText: result.answer?.text ?? '',
        answerKind: result.answer?.kind,
        filters: result.filters,
        total: result.total,
        sentence: result.sentence,
      });
    } catch (error) {
      update({ status: 'error', error: toUiError(error).message });
    } finally {
      stop();
    }
  },
  async loadRemote() {
    try {
      set({ remote: await invoke('search-remote-get', {}) });
    } catch {
      set({ remote: { hasToken: false } });
    }
  },
  async saveRemote(input) {
    try {
      const remote = await invoke('search-remote-set', input);
      set({ remote });
      return remote;
    } catch (error) {
      throw toUiError(error);
    }
  },
  async loadDataClasses() {
    try {
      set({ dataClasses: await invoke('breaches-data-classes', {}) });
    } catch {
      // Suggestions only: without them the chips list stays empty.
    }
  },
  reset() {
    set({ run: undefined, remote: undefined, dataClasses: [] });
  },
}));

onAccountChange(() => useSearch.getState().reset());
