import { create } from 'zustand';
import type { BreachList } from '../../shared/ipc/views.ts';
import { invoke, toUiError } from '../lib/core.ts';
import { toListQuery, type Filters } from '../lib/urlState.ts';

interface BreachesStore {
  /** The last answer; kept while a new query runs so the list never blanks or jumps. */
  list?: BreachList;
  /** Filters the current `list` answers. */
  filters?: Filters;
  loading: boolean;
  error?: string;
  /** Suggestions from local data for the filter bar. */
  domains: string[];
  dataClasses: string[];
  load(filters: Filters): Promise<void>;
  /**
   * Asks for a list before its page opens (the shell does it for the unfiltered list while the
   * overview shows), so a click on Breaches draws rows at once; the page's own load of the same
   * filters then takes this answer instead of asking again. Nothing when a list is known.
   */
  prefetch(filters: Filters): void;
  reload(): Promise<void>;
  loadOptions(): Promise<void>;
  reset(): void;
}

let sequence = 0;
/** The filters of the latest request: a reload must re-ask those, not the last answered ones. */
let requested: Filters | undefined;
/** The prefetched request, until a load of the same query takes it (once). */
let early: { key: string; answer: Promise<BreachList> } | undefined;

function takeEarly(key: string): Promise<BreachList> | undefined {
  const taken = early?.key === key ? early.answer : undefined;
  early = undefined;
  return taken;
}

export const useBreaches = create<BreachesStore>()((set, get) => ({
  loading: false,
  domains: [],
  dataClasses: [],
  async load(filters) {
    const mine = ++sequence;
    requested = filters;
    set({ loading: true, error: undefined });
    try {
      const query = toListQuery(filters);
      const list = await (takeEarly(JSON.stringify(query)) ?? invoke('breaches-list', query));
      // A slower, older answer must not overwrite a newer one.
      if (mine === sequence) set({ list, filters, loading: false });
    } catch (error) {
      if (mine === sequence) set({ error: toUiError(error).message, filters, loading: false });
    }
  },
  prefetch(filters) {
    if (get().list || requested || early) return;
    const query = toListQuery(filters);
    const answer = invoke('breaches-list', query);
    early = { key: JSON.stringify(query), answer };
    answer.then(
      (list) => {
        // Only while nothing newer asked: a load takes over from here.
        if (early?.answer === answer && requested === undefined && !get().list) set({ list, filters });
      },
      () => {
        // The page's own load reports errors; a failed prefetch only costs its time.
        if (early?.answer === answer) early = undefined;
      },
    );
  },
  async reload() {
    // A change landed: an early answer may predate it.
    early = undefined;
    // A reload (a sync landed) while a new query is in flight must not replace it with the
    // previous filters: the newer answer would be dropped and the list would stay stale.
    const filters = requested ?? get().filters;
    if (filters) await get().load(filters);
  },
  async loadOptions() {
    try {
      const [domains, dataClasses] = await Promise.all([invoke('breaches-domains', {}), invoke('breaches-data-classes', {})]);
      set({ domains, dataClasses });
    } catch {
      // Suggestions are a convenience; the filters still work by typing.
    }
  },
  reset() {
    sequence++;
    requested = undefined;
    early = undefined;
    set({ list: undefined, filters: undefined, loading: false, error: undefined, domains: [], dataClasses: [] });
  },
}));
