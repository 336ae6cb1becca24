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
  reload(): Promise<void>;
  loadOptions(): Promise<void>;
  reset(): void;
}

let sequence = 0;
/** The filters of the latest request: a reload must re-ask those, not the last answered ones. */
let requested: Filters | undefined;

export const useBreaches = create<BreachesStore>()((set, get) => ({
  loading: false,
  domains: [],
  dataClasses: [],
  async load(filters) {
    const mine = ++sequence;
    requested = filters;
    set({ loading: true, error: undefined });
    try {
      const list = await invoke('breaches-list', toListQuery(filters));
      // A slower, older answer must not overwrite a newer one.
      if (mine === sequence) set({ list, filters, loading: false });
    } catch (error) {
      if (mine === sequence) set({ error: toUiError(error).message, filters, loading: false });
    }
  },
  async reload() {
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
    set({ list: undefined, filters: undefined, loading: false, error: undefined, domains: [], dataClasses: [] });
  },
}));
