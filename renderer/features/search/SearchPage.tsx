import { useEffect, useId, useState, type FormEvent } from 'react';
import { Credit } from '../../components/Credit.tsx';
import { EmptyState, ErrorState, Spinner } from '../../components/States.tsx';
import { breachIdOfKey } from '../../../shared/search/document.ts';
import { formatHash } from '../../lib/urlState.ts';
import { useRoute } from '../../state/route.ts';
import { useSearch, type SearchEngineChoice } from '../../state/search.ts';
import { compileFilters, NO_CHIPS, type SearchChips } from './compileFilters.ts';
import { RemoteInstanceForm } from './RemoteInstanceForm.tsx';
import { useSettings } from '../../state/settings.ts';
import { SENSITIVE_SETTING_HREF } from '../status/SensitiveNote.tsx';

/**
 * Search across breaches: free text ranked by the engine, filter chips compiled to the new
 * metadata filter format, results streamed in (chunks first), and an answer labelled as the
 * engine says (extractive or generated).
 */
export function SearchPage() {
  const id = useId();
  const { run, remote, dataClasses, search, loadRemote, loadDataClasses } = useSearch();
  const filtersOfRoute = useRoute((s) => s.route.filters);
  const [query, setQuery] = useState('');
  const [engine, setEngine] = useState<SearchEngineChoice>('embedded');
  const [answer, setAnswer] = useState(true);
  // The one sensitive policy (shared/api/sensitive.ts): unless the person opted in, "Not sensitive" and nothing else.
  const showSensitive = useSettings((s) => s.settings?.showSensitive === true);
  const [chips, setChips] = useState<SearchChips>(() => ({ ...NO_CHIPS, sensitive: showSensitive ? NO_CHIPS.sensitive : 'exclude' }));
  const [onlyMine, setOnlyMine] = useState(false);
  const [showFilter, setShowFilter] = useState(false);
  const compiled = compileFilters(showSensitive ? chips : { ...chips, sensitive: 'exclude' });

  useEffect(() => {
    void loadRemote();
    void loadDataClasses();
  }, [loadRemote, loadDataClasses]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void search({ engine, query: query.trim(), filters: compiled, onlyMine: engine === 'remote' && onlyMine, answer });
  };
  const toggleClass = (name: string, on: boolean) => setChips((c) => ({ ...c, dataClasses: on ? [...c.dataClasses, name] : c.dataClasses.filter((n) => n !== name) }));
  const remoteReady = remote?.instance !== undefined && remote.hasToken;

  return (
    <div className="page search-page">
      <header className="page-head">
        <h1 className="page-title">Search</h1>
      </header>

      <form className="card search-form" role="search" aria-label="Search breaches" onSubmit={submit}>
        <div className="search-row">
          <label className="visually-hidden" htmlFor={`${id}-q`}>
            Search breaches
          </label>
          <input
            id={`${id}-q`}
            className="input search-input"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="e.g. which of my breaches leaked passwords after 2020?"
            maxLength={2000}
          />
          <button type="submit" className="button button-primary" disabled={run?.status === 'running'}>
            Search
          </button>
        </div>

        <fieldset className="fieldset search-engine">
          <legend className="field-label">Search with</legend>
          <label className="check-field">
            <input type="radio" name={`${id}-engine`} checked={engine === 'embedded'} onChange={() => setEngine('embedded')} /> Embedded (offline, your breaches)
          </label>
          <label className="check-field">
            <input type="radio" name={`${id}-engine`} checked={engine === 'remote'} onChange={() => setEngine('remote')} disabled={!remoteReady} /> Remote instance
            {remote?.instance ? ` (${remote.instance.name}${remote.instance.legacy ? ', legacy' : ''})` : ' (add one below)'}
          </label>
          <label className="check-field">
            <input type="checkbox" checked={answer} onChange={(e) => setAnswer(e.target.checked)} /> Answer the question
          </label>
        </fieldset>

        <fieldset className="fieldset search-chips">
          <legend className="field-label">Filters</legend>
          {dataClasses.length > 0 ? (
            <div className="chip-group" role="group" aria-label="Data classes">
              {dataClasses.map((name) => (
                <label key={name} className={chips.dataClasses.includes(name) ? 'chip is-on' : 'chip'}>
                  <input type="checkbox" checked={chips.dataClasses.includes(name)} onChange={(e) => toggleClass(name, e.target.checked)} /> {name}
                </label>
              ))}
            </div>
          ) : null}
          <div className="search-chip-row">
            <label>
              Breached from <input type="date" className="input" value={chips.breachedFrom} onChange={(e) => setChips((c) => ({ ...c, breachedFrom: e.target.value }))} />
            </label>
            <label>
              Breached until <input type="date" className="input" value={chips.breachedUntil} onChange={(e) => setChips((c) => ({ ...c, breachedUntil: e.target.value }))} />
            </label>
            <label>
              Sensitive{' '}
              <select
                className="input"
                value={showSensitive ? chips.sensitive : 'exclude'}
                disabled={!showSensitive}
                aria-describedby={showSensitive ? undefined : 'search-sensitive-hint'}
                onChange={(e) => setChips((c) => ({ ...c, sensitive: e.target.value as SearchChips['sensitive'] }))}
              >
                <option value="any">Any</option>
                <option value="only">Only sensitive</option>
                <option value="exclude">Not sensitive</option>
              </select>
            </label>
            {showSensitive ? null : (
              <span id="search-sensitive-hint" className="field-hint">
                Sensitive breaches are hidden. <a href={SENSITIVE_SETTING_HREF}>Show them in Settings</a>
              </span>
            )}
            <label className="check-field">
              <input type="checkbox" checked={chips.verified === 'only'} onChange={(e) => setChips((c) => ({ ...c, verified: e.target.checked ? 'only' : 'any' }))} /> Verified only
            </label>
            <label className="check-field">
              <input type="checkbox" checked={engine === 'embedded' || onlyMine} disabled={engine === 'embedded'} onChange={(e) => setOnlyMine(e.target.checked)} /> Only breaches naming me
            </label>
          </div>
          <button type="button" className="button button-quiet" aria-expanded={showFilter} aria-controls={`${id}-filter`} onClick={() => setShowFilter((v) => !v)}>
            {showFilter ? 'Hide filter' : 'Show filter'}
          </button>
          {showFilter ? (
            <pre id={`${id}-filter`} className="search-filter-json" aria-label="Filter in the metadata filter format">
              {JSON.stringify(run?.status === 'done' && run.filters ? run.filters : (compiled ?? {}), null, 2)}
            </pre>
          ) : null}
        </fieldset>
      </form>

      <SearchResults filtersHash={filtersOfRoute} />
      <RemoteInstanceForm />
      <Credit />
    </div>
  );
}

function SearchResults({ filtersHash }: { filtersHash: ReturnType<typeof useRoute.getState>['route']['filters'] }) {
  const run = useSearch((s) => s.run);
  if (!run)
    return (
      <EmptyState icon="search" title="Ask about your breaches">
        Type words or a question, pick filters, and press Search.
      </EmptyState>
    );
  if (run.status === 'error') return <ErrorState title="The search failed" message={run.error ?? 'Something went wrong.'} />;
  return (
    <section className="search-results" aria-label="Search results" aria-busy={run.status === 'running'}>
      {run.chunks === undefined ? (
        <p role="status">
          <Spinner label="Searching…" />
        </p>
      ) : run.chunks.length === 0 ? (
        <EmptyState icon="search" title="No breach matches">
          Try other words or fewer filters.
        </EmptyState>
      ) : (
        <ol className="search-chunks" aria-label="Matching breaches">
          {run.chunks.map((chunk) => {
            const breachId = breachIdOfKey(chunk.item.key) ?? chunk.item.key;
            return (
              <li key={chunk.id} className="search-chunk">
                <a href={formatHash({ screen: 'breaches', filters: filtersHash, breachId })} className="search-chunk-title">
                  {chunk.item.metadata.title}
                </a>{' '}
                <span className="muted">
                  {chunk.item.metadata.domain || 'no domain'} · {new Date(chunk.item.metadata.breachDate * 1000).getUTCFullYear()} · score {chunk.score.toFixed(2)}
                </span>
                <p className="search-chunk-text">{chunk.text.length > 400 ? chunk.text.slice(0, 397) + '…' : chunk.text}</p>
              </li>
            );
          })}
        </ol>
      )}
      {run.wantsAnswer && run.chunks !== undefined ? (
        <section className="card search-answer" aria-label="Answer">
          <h2 className="card-title">
            Answer{' '}
            {run.answerKind ? (
              <span className={`badge badge-${run.answerKind}`}>{run.answerKind === 'extractive' ? 'Extractive: quoted from the results' : 'Generated by a language model'}</span>
            ) : null}
          </h2>
          <p className="search-answer-text" aria-live="polite">
            {run.answerText || (run.status === 'running' ? '…' : '')}
          </p>
        </section>
      ) : null}
    </section>
  );
}
