import { useEffect, useId, useState, type RefObject } from 'react';
import { useMediaQuery } from '../../lib/useMediaQuery.ts';
import { Icon } from '../../components/Icon.tsx';
import { MultiSelect } from '../../components/MultiSelect.tsx';
import { understandListText } from '../../../shared/search/listText.ts';
import { hasActiveFilters, type Filters, type Sort } from '../../lib/urlState.ts';
import { useBreaches } from '../../state/breaches.ts';
import { useRoute } from '../../state/route.ts';
import { AdvancedFilter } from './AdvancedFilter.tsx';

const SORT_LABELS: Record<Sort, string> = {
  breachDate: 'Newest breach',
  addedDate: 'Recently added',
  name: 'Name, A to Z',
  unresolved: 'Most to fix',
};

/**
 * Windows at least this tall show every filter at once; shorter ones (1024×768 with the status
 * bar and a banner) keep them behind "Filters" so the list keeps at least six rows in view.
 */
const ROOM_FOR_FILTERS = '(min-height: 820px)';

/** The filters the panel holds that are set (the toggle counts them while it is closed). */
export function panelFilterCount(filters: Filters): number {
  return (
    filters.dataClasses.length + filters.unresolvedDataClasses.length + (filters.domain ? 1 : 0) + (filters.includeSensitive ? 1 : 0) + (filters.includeFlagged ? 1 : 0) + (filters.advanced ? 1 : 0)
  );
}

/** The person's own choice, kept while the window is open (leaving the page and coming back keeps it). */
let chosenOpen: boolean | undefined;

/** Whether the filter panel is open: the person's choice, else whether the window has room. */
export function useFilterPanel(): [boolean, (open: boolean) => void] {
  const roomy = useMediaQuery(ROOM_FOR_FILTERS, true);
  const [choice, setChoice] = useState<boolean | undefined>(chosenOpen);
  const choose = (open: boolean) => {
    chosenOpen = open;
    setChoice(open);
  };
  return [choice ?? roomy, choose];
}

/** The button that shows and hides the filter panel; the page head holds it. */
export function FiltersToggle({ open, panelId, onToggle }: { open: boolean; panelId: string; onToggle(open: boolean): void }) {
  const count = useRoute((s) => panelFilterCount(s.route.filters));
  return (
    <button type="button" className="button button-ghost button-small filters-toggle" aria-expanded={open} aria-controls={panelId} onClick={() => onToggle(!open)}>
      <Icon name="chevronDown" size={14} className={open ? 'filters-toggle-icon is-open' : 'filters-toggle-icon'} />
      Filters
      {count > 0 ? <span className="count-badge">{count}</span> : null}
    </button>
  );
}

export function FilterBar({ searchRef, open, panelId }: { searchRef: RefObject<HTMLInputElement | null>; open: boolean; panelId: string }) {
  const filters = useRoute((s) => s.route.filters);
  const setFilters = useRoute((s) => s.setFilters);
  const clearFilters = useRoute((s) => s.clearFilters);
  const domains = useBreaches((s) => s.domains);
  const dataClasses = useBreaches((s) => s.dataClasses);
  const id = useId();
  const understood = describeListText(filters.text, dataClasses);

  return (
    <div className="filterbar">
      <div className="filterbar-row">
        <div className="search-field">
          <Icon name="search" className="search-icon" />
          <label className="visually-hidden" htmlFor={`${id}-text`}>
            Search breaches
          </label>
          <input
            ref={searchRef}
            id={`${id}-text`}
            className="input input-search"
            type="search"
            // Short: in the 387 px list of a 1024 px window the field is narrow (its label says the rest).
            placeholder="Search"
            aria-keyshortcuts="/"
            autoComplete="off"
            spellCheck={false}
            value={filters.text}
            maxLength={200}
            aria-describedby={understood ? `${id}-text-read` : undefined}
            onChange={(event) => setFilters({ text: event.target.value })}
          />
          <kbd className="kbd search-kbd" aria-hidden="true">
            /
          </kbd>
        </div>
        <div className="field-inline">
          <label className="field-label-inline" htmlFor={`${id}-sort`}>
            Sort by
          </label>
          <select id={`${id}-sort`} className="select" value={filters.sort} onChange={(event) => setFilters({ sort: event.target.value as Sort })}>
            {(Object.keys(SORT_LABELS) as Sort[]).map((sort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
      {understood ? (
        <p id={`${id}-text-read`} className="muted filter-text-read">
          {understood}
        </p>
      ) : null}
      {/* Set filters stay in view as chips while the panel is closed. */}
      {hasActiveFilters(filters) ? (
        <div className="filterbar-row">
          <ActiveFilters filters={filters} onChange={setFilters} onClear={clearFilters} />
        </div>
      ) : null}
      <div id={panelId} className="filterbar-panel" hidden={!open}>
        <div className="filterbar-row">
          <MultiSelect label="Data classes" options={dataClasses} selected={filters.dataClasses} onChange={(next) => setFilters({ dataClasses: next })} hint="Breaches that exposed any of these" />
          <MultiSelect
            label="Unresolved data classes"
            options={dataClasses}
            selected={filters.unresolvedDataClasses}
            onChange={(next) => setFilters({ unresolvedDataClasses: next })}
            hint="Breaches where any of these is still to fix"
          />
        </div>
        <div className="filterbar-row">
          <DomainField id={`${id}-domain`} value={filters.domain ?? ''} suggestions={domains} onCommit={(domain) => setFilters({ domain: domain || undefined })} />
          <label className="check-inline">
            <input type="checkbox" checked={filters.includeSensitive} onChange={(event) => setFilters({ includeSensitive: event.target.checked })} />
            Include sensitive breaches
          </label>
          <label className="check-inline">
            <input type="checkbox" checked={filters.includeFlagged === true} onChange={(event) => setFilters({ includeFlagged: event.target.checked || undefined })} />
            Show fabricated, spam-list and retired breaches
          </label>
        </div>
        <div className="filterbar-row">
          <AdvancedFilter value={filters.advanced} onApply={(advanced) => setFilters({ advanced })} />
        </div>
      </div>
    </div>
  );
}

/**
 * Filters as the person types, by any part of the domain ("dobe" finds adobe.com, the local
 * store's `domainContains`); the suggestions are the known domains that contain what is typed,
 * so the list under the field and the list of breaches agree.
 */
function DomainField({ id, value, suggestions, onCommit }: { id: string; value: string; suggestions: string[]; onCommit(domain: string): void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const needle = draft.trim().toLowerCase();
  const matching = needle ? suggestions.filter((domain) => domain.toLowerCase().includes(needle)) : suggestions;
  return (
    <div className="field-inline">
      <label className="field-label-inline" htmlFor={id}>
        Domain
      </label>
      <input
        id={id}
        className="input input-domain"
        type="search"
        list={`${id}-list`}
        placeholder="Any, or part of one"
        autoComplete="off"
        spellCheck={false}
        maxLength={253}
        value={draft}
        onChange={(event) => {
          setDraft(event.target.value);
          const trimmed = event.target.value.trim();
          if (trimmed !== value) onCommit(trimmed);
        }}
      />
      <datalist id={`${id}-list`} data-testid="domain-suggestions">
        {matching.slice(0, 50).map((domain) => (
          <option key={domain} value={domain} />
        ))}
      </datalist>
    </div>
  );
}

function ActiveFilters({ filters, onChange, onClear }: { filters: Filters; onChange(update: Partial<Filters>): void; onClear(): void }) {
  if (!hasActiveFilters(filters)) return null;
  const chips: { key: string; label: string; kind: string; remove(): void }[] = [];
  if (filters.domain) chips.push({ key: 'domain', label: filters.domain, kind: 'domain', remove: () => onChange({ domain: undefined }) });
  if (filters.email) chips.push({ key: 'email', label: filters.email, kind: 'email', remove: () => onChange({ email: undefined }) });
  if (filters.advanced) chips.push({ key: 'advanced', label: filters.advanced, kind: 'advanced', remove: () => onChange({ advanced: undefined }) });
  for (const name of filters.dataClasses) chips.push({ key: `dc-${name}`, label: name, kind: 'data class', remove: () => onChange({ dataClasses: filters.dataClasses.filter((n) => n !== name) }) });
  for (const name of filters.unresolvedDataClasses)
    chips.push({
      key: `udc-${name}`,
      label: name,
      kind: 'unresolved',
      remove: () => onChange({ unresolvedDataClasses: filters.unresolvedDataClasses.filter((n) => n !== name) }),
    });
  return (
    <div className="active-filters">
      {chips.length > 0 ? (
        <ul className="active-filters-list" aria-label="Active filters">
          {chips.map((chip) => (
            <li key={chip.key} className="filter-chip">
              <span className="filter-chip-kind">{chip.kind}</span> {chip.label}
              <button type="button" className="filter-chip-remove" aria-label={`Remove ${chip.kind} filter ${chip.label}`} onClick={chip.remove}>
                <Icon name="close" size={12} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <button type="button" className="button button-ghost button-small" onClick={onClear}>
        Clear filters
      </button>
    </div>
  );
}

/**
 * What the text box is read as, when it is more than words ("passwords after 2020" → "Breaches
 * that exposed Passwords, breached from 2021-01-01"), so a filter by data class or date is never
 * a surprise. Undefined when the text is only words to find in names, domains and data classes.
 */
function describeListText(text: string, dataClasses: readonly string[]): string | undefined {
  const match = understandListText(text, { dataClasses });
  if (!match || (match.dataClasses.length === 0 && match.from === undefined && match.until === undefined)) return undefined;
  const said: string[] = [];
  if (match.dataClasses.length > 0) said.push(`that exposed ${match.dataClasses.join(' or ')}`);
  if (match.from !== undefined && match.until !== undefined) said.push(`breached ${match.from} to ${match.until}`);
  else if (match.from !== undefined) said.push(`breached from ${match.from}`);
  else if (match.until !== undefined) said.push(`breached until ${match.until}`);
  const words = match.words.length > 0 ? `, naming “${match.words.join(' ')}”` : '';
  return `Breaches ${said.join(', ')}${words}.`;
}
