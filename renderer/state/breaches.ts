import { create } from 'zustand';
import type { BreachList } from '../../shared/ipc/views.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';
import { firstRowsQuery } from '../lib/firstRows.ts';
import { idle } from '../lib/whenIdle.ts';
import { sameFilters, toListQuery, type Filters } from '../lib/urlState.ts';

/** After a change of filters, how long the person must pause before the whole list is asked for. */
export const REST_AFTER_CHANGE_MS = 500;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface BreachesStore {
  /**
   * The last answer; kept while a new query runs so the list never blanks or jumps. On a first
   * load or new filters it may hold only the first rows (`FIRST_WINDOW`, lib/firstRows.ts;
   * `partial`) until the rest arrives.
   */
  list?: BreachList;
  /** `list` holds only the first rows and the rest is on its way. */
  partial: boolean;
  /** Filters the current `list` answers. */
  filters?: Filters;
  loading: boolean;
  error?: string;
  /** Suggestions from local data for the filter bar. */
  domains: string[];
  dataClasses: string[];
  load(filters: Filters): Promise<void>;
  /**
   * Asks for the first rows of a list before its page opens (the shell does it for the
   * unfiltered list while the overview shows), so a click on Breaches draws rows at once; the
   * page's own load of the same filters then takes this answer and asks only for the whole list.
   * Nothing when a list is known.
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
  partial: false,
  domains: [],
  dataClasses: [],
  async load(filters) {
    const mine = ++sequence;
    requested = filters;
    set({ loading: true, error: undefined });
    const query = toListQuery(filters);
    // Only the newest request's answers may show.
    const current = () => mine === sequence;
    try {
      const early = takeEarly(JSON.stringify(query));
      // Nothing on screen yet, or the person asked for other filters: the first rows first (a few
      // kilobytes, one frame away), drawn as soon as they come, then the whole list (hundreds of
      // kilobytes to build, carry and parse: most of a filter's time). The same filters asked
      // again (data changed) keep the rows on screen until the new list is whole, so the rows
      // being read never turn into placeholders.
      const shown = get();
      const refiltered = shown.list !== undefined && shown.filters !== undefined && !sameFilters(shown.filters, filters);
      if (early || !shown.list || refiltered) {
        const first = await (early ?? invoke('breaches-list', firstRowsQuery(filters)));
        if (!current()) return;
        const partial = first.rows.length < first.total;
        set({ list: first, partial, filters, loading: false });
        if (!partial) return;
        // The whole list of a heavy account is a megabyte to build, carry and parse: asked once
        // the first rows are drawn and the browser is idle, so it never delays them. After a
        // change of filters, also once the person pauses (longer than between keystrokes or
        // ticks): filters changed one after another each draw their first rows, and only the
        // last builds the whole list (an earlier one would hold up the core, which builds it in
        // one go, and the next filter's first rows behind it).
        if (refiltered) await pause(REST_AFTER_CHANGE_MS);
        if (!current()) return;
        await idle();
        if (!current()) return;
      }
      const list = await invoke('breaches-list', query);
      // A slower, older answer must not overwrite a newer one.
      if (current()) set({ list, partial: false, filters, loading: false });
    } catch (error) {
      if (current()) set({ error: toUiError(error).message, partial: false, filters, loading: false });
    }
  },
  prefetch(filters) {
    if (get().list || requested || early) return;
    const answer = invoke('breaches-list', firstRowsQuery(filters));
    early = { key: JSON.stringify(toListQuery(filters)), answer };
    answer.then(
      (list) => {
        // Only while nothing newer asked: a load takes over from here.
        if (early?.answer === answer && requested === undefined && !get().list) set({ list, partial: list.rows.length < list.total, filters });
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
    set({ list: undefined, partial: false, filters: undefined, loading: false, error: undefined, domains: [], dataClasses: [] });
  },
}));

onAccountChange(() => useBreaches.getState().reset());
