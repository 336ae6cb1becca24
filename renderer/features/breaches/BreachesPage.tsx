import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Credit } from '../../components/Credit.tsx';
import { EmptyState, ErrorState, Skeleton } from '../../components/States.tsx';
import { filtersToParams, formatHash, hasActiveFilters } from '../../lib/urlState.ts';
import { useDebounced } from '../../lib/useDebounced.ts';
import { useBreaches } from '../../state/breaches.ts';
import { usePreferences } from '../../state/preferences.ts';
import { useRoute } from '../../state/route.ts';
import { useSync } from '../../state/sync.ts';
import { BreachDetailPane } from '../detail/BreachDetail.tsx';
import { BreachList, type BreachListHandle } from './BreachList.tsx';
import { CatalogNotice } from './CatalogNotice.tsx';
import { countsText, withoutHidden } from './counts.ts';
import { DomainNote } from './DomainNote.tsx';
import { FilterBar, FiltersToggle, useFilterPanel } from './FilterBar.tsx';
import { HibpExposureCredit } from '../checks/AddressChecks.tsx';
import { NoBreaches } from '../checks/NoBreaches.tsx';
import { useChecks } from '../../state/checks.ts';

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function BreachesPage({ searchDelayMs = 150 }: { searchDelayMs?: number }) {
  const route = useRoute((s) => s.route);
  const openBreach = useRoute((s) => s.openBreach);
  const clearFilters = useRoute((s) => s.clearFilters);
  const { list, partial, loading, error, load, loadOptions } = useBreaches();
  const answered = useBreaches((s) => s.filters);
  const syncNow = useSync((s) => s.syncNow);
  const everSynced = useSync((s) => s.status?.lastSyncAt !== undefined);
  const hibpSource = useChecks((s) => s.view.source === 'hibp');
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<BreachListHandle>(null);
  // Breaches the person hid (shared between their devices); shown again on request.
  const hiddenIds = usePreferences((s) => s.preferences?.hiddenBreaches);
  const loadPreferences = usePreferences((s) => s.load);
  const [showHidden, setShowHidden] = useState(false);
  const [filtersOpen, setFiltersOpen] = useFilterPanel();
  const filterPanelId = useId();
  useEffect(() => {
    void loadPreferences();
  }, [loadPreferences]);

  // Typing in the search box queries once the person pauses; every other filter at once.
  const text = useDebounced(route.filters.text, searchDelayMs);
  const filters = useMemo(() => ({ ...route.filters, text }), [route.filters, text]);
  const filtersKey = formatHash({ screen: 'breaches', filters });

  useEffect(() => {
    void load(filters);
  }, [filtersKey, load]); // filtersKey stands for every field of filters

  useEffect(() => {
    void loadOptions();
  }, [loadOptions]);

  const detailOpen = route.breachId !== undefined;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === '/' && !isTyping(event.target)) {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if (event.key === 'Escape' && detailOpen && !(event.target instanceof HTMLInputElement && event.target.type !== 'checkbox' && event.target.type !== 'radio')) {
        event.preventDefault();
        openBreach(undefined);
        listRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [detailOpen, openBreach]);

  const filtered = hasActiveFilters(route.filters);
  const hidden = useMemo(() => new Set(hiddenIds ?? []), [hiddenIds]);
  const hiddenHere = list ? list.rows.filter((row) => hidden.has(row.breach.id)).length : 0;
  // What the person sees: the rows, the total and the counts all without the breaches they hid.
  const shown = useMemo(() => (list && !showHidden ? withoutHidden(list, hidden) : { list, hiddenByYou: 0 }), [list, showHidden, hidden]);
  const rows = shown.list?.rows;

  let body;
  if (error && !list) {
    body = <ErrorState title="The breaches couldn’t be loaded" message={error} onRetry={() => void load(filters)} />;
  } else if (!list) {
    body = (
      <div className="breach-list-loading" aria-busy="true" aria-label="Loading breaches">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} lines={3} className="skeleton-row" />
        ))}
      </div>
    );
  } else if (list.rows.length > 0 && rows!.length === 0) {
    body = (
      <EmptyState
        icon="shield"
        title="Every breach here is hidden"
        action={
          <button type="button" className="button" onClick={() => setShowHidden(true)}>
            Show hidden breaches
          </button>
        }
      >
        <p>You hid these breaches on one of your devices.</p>
      </EmptyState>
    );
  } else if (list.rows.length === 0) {
    body = filtered ? (
      <EmptyState
        icon="search"
        title="No breaches match these filters"
        action={
          <button type="button" className="button" onClick={clearFilters}>
            Show all breaches
          </button>
        }
      >
        {route.filters.includeSensitive ? null : <p>Sensitive breaches are hidden; include them to search those too.</p>}
      </EmptyState>
    ) : everSynced ? (
      <NoBreaches
        known={
          <EmptyState icon="shield" title="No breaches found">
            <p>None of your email addresses appear in a breach the service knows of. Breach Monitor keeps checking and tells you when that changes.</p>
          </EmptyState>
        }
      />
    ) : (
      <EmptyState
        icon="refresh"
        title="Nothing synced yet"
        action={
          <button type="button" className="button button-primary" onClick={() => void syncNow()}>
            Sync now
          </button>
        }
      >
        <p>Your breaches appear here after the first sync with the service.</p>
      </EmptyState>
    );
  } else {
    // A first load may hold only the first rows: the list keeps room for the rest.
    body = (
      <BreachList
        ref={listRef}
        rows={rows!}
        total={partial ? rows!.length + shown.list!.total - shown.list!.rows.length : undefined}
        selectedId={route.breachId}
        onOpen={(id) => openBreach(id)}
        label="Breaches"
        revealKey={answered ? filtersToParams(answered).toString() : ''}
      />
    );
  }

  return (
    <div className={detailOpen ? 'split has-detail' : 'split'}>
      <section className="list-pane" aria-labelledby="breaches-title">
        <div className="page-head">
          <h1 id="breaches-title" className="page-title">
            Breaches
          </h1>
          <FiltersToggle open={filtersOpen} panelId={filterPanelId} onToggle={setFiltersOpen} />
        </div>
        <FilterBar searchRef={searchRef} open={filtersOpen} panelId={filterPanelId} />
        {hiddenHere > 0 || showHidden ? (
          <label className="check-field hidden-toggle">
            <input type="checkbox" className="checkbox" checked={showHidden} onChange={(event) => setShowHidden(event.target.checked)} />
            <span>Show hidden ({hiddenHere})</span>
          </label>
        ) : null}
        <p className="counts" aria-live="polite">
          {shown.list ? countsText(shown.list, answered ?? route.filters, shown.hiddenByYou) : '\u00a0'}
          <span className={loading && list ? 'counts-updating is-visible' : 'counts-updating'} aria-hidden={!(loading && list)}>
            Updating…
          </span>
        </p>
        {list && answered?.domain ? <DomainNote domain={answered.domain} list={list} partial={partial} /> : null}
        {error && list ? (
          <p className="inline-error" role="alert">
            The list couldn’t be refreshed: {error}
          </p>
        ) : null}
        {list?.catalogNotice ? <CatalogNotice notice={list.catalogNotice} onDismissed={() => void load(filters)} /> : null}
        <div className="list-body">{body}</div>
        {list?.includesHibp ? <Credit className="list-credit" /> : hibpSource ? <HibpExposureCredit /> : null}
      </section>
      <section className="detail-pane" aria-label="Breach detail">
        {route.breachId ? (
          <BreachDetailPane
            id={route.breachId}
            onClose={() => {
              openBreach(undefined);
              listRef.current?.focus();
            }}
          />
        ) : (
          <EmptyState icon="list" title="Choose a breach">
            <p>See what it exposed for each of your email addresses and mark what you’ve fixed.</p>
            <p className="muted">
              <kbd className="kbd">↑</kbd> <kbd className="kbd">↓</kbd> to move, <kbd className="kbd">Enter</kbd> to open, <kbd className="kbd">/</kbd> to search
            </p>
          </EmptyState>
        )}
      </section>
    </div>
  );
}
