import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { Credit } from '../../components/Credit.tsx';
import { EmptyState, ErrorState, Spinner } from '../../components/States.tsx';
import { MAX_RESULTS_LIMIT } from '../../../shared/search/api.ts';
import { BREACH_FILTER_FIELDS, breachIdOfKey } from '../../../shared/search/document.ts';
import { readableFilter } from '../../../shared/search/readableFilter.ts';
import { questionText, understandQuery, type QueryPart } from '../../../shared/search/understandQuery.ts';
import { questionFilter } from '../../../shared/search/ask.ts';
import type { MetadataFilter, SearchChunk } from '../../../shared/search/index.ts';
import { DemoLabel } from '../checks/DemoLabel.tsx';
import { useChecks } from '../../state/checks.ts';
import { formatHash } from '../../lib/urlState.ts';
import { useRoute } from '../../state/route.ts';
import { useSearch, type SearchEngineChoice } from '../../state/search.ts';
import { compileFilters, NO_CHIPS, type SearchChips } from './compileFilters.ts';
import { takeOver, withQuestion } from './questionChips.ts';
import { RemoteInstanceForm } from './RemoteInstanceForm.tsx';
import { useSettings } from '../../state/settings.ts';
import { SENSITIVE_SETTING_HREF } from '../status/SensitiveNote.tsx';

/**
 * Search across breaches, calm: the question box and the chips the question produced first; the
 * full filter set and the engine choice folded behind one control. The question is sent as its
 * kept parts and words (a removed chip's words are not), and both engines understand it alike
 * (shared/search/ask.ts); the chips set by hand go as the new-format filter. Results come
 * streamed (chunks first) under the answer sentence of an aggregate question, each saying what
 * matched instead of a score; an answer is labelled as the engine says (extractive or generated).
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
  const [showOptions, setShowOptions] = useState(false);
  /** Keys of chips the person removed from what the question says; they stay removed while the question says it. */
  const [dismissed, setDismissed] = useState<string[]>([]);
  /** The chips' filter as last sent: while the chips still say it, "Show filter" shows what the core sent (with "only mine"). */
  const [lastSent, setLastSent] = useState<string | undefined>();
  const understood = useMemo(() => understandQuery(query, { dataClasses, dismissed }), [query, dataClasses, dismissed]);
  const effective = withQuestion(chips, understood.parts);
  // What is sent: the chips set by hand (the engines read the question's own parts from its text);
  // the one sensitive policy wins over the question: unless the person opted in, never sensitive.
  const compiled = compileFilters(showSensitive ? chips : { ...chips, sensitive: 'exclude' });
  /** What "Show filter" shows: the chips' filter with the question's parts over it. */
  const applied: MetadataFilter | undefined = mergeShown(compiled, questionFilter(understood.parts));
  const setByHand = countSet(chips);
  const fromQuestion = new Map(understood.parts.flatMap((part) => (part.kind === 'dataClass' ? [[part.dataClass.toLowerCase(), part.key] as const] : [])));

  useEffect(() => {
    void loadRemote();
    void loadDataClasses();
  }, [loadRemote, loadDataClasses]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLastSent(JSON.stringify(compiled ?? {}));
    void search({ engine, query: questionText(understood), filters: compiled, onlyMine: engine === 'remote' && onlyMine, answer, maxResults: MAX_RESULTS_LIMIT, now: Date.now() });
  };
  const changeQuery = (text: string) => {
    setQuery(text);
    // A removed chip comes back only once the question stops saying it and says it again.
    const said = new Set(understandQuery(text, { dataClasses }).parts.map((part) => part.key));
    setDismissed((keys) => (keys.every((key) => said.has(key)) ? keys : keys.filter((key) => said.has(key))));
  };
  const dismiss = (...removed: string[]) => setDismissed((keys) => (removed.every((key) => keys.includes(key)) ? keys : [...keys, ...removed.filter((key) => !keys.includes(key))]));
  /** A control shows what applies; changing one the question set takes over from the question. */
  const setControl = (control: Parameters<typeof takeOver>[2], change: Partial<SearchChips>) => {
    const { chips: applied, dismissed: removed } = takeOver(chips, understood.parts, control);
    if (removed.length > 0) dismiss(...removed);
    setChips({ ...applied, ...change });
  };
  const toggleClass = (name: string, on: boolean) => {
    const questionKey = fromQuestion.get(name.toLowerCase());
    if (!on && questionKey) dismiss(questionKey);
    setChips((c) => ({ ...c, dataClasses: on ? [...c.dataClasses, name] : c.dataClasses.filter((n) => n !== name) }));
  };
  const classChoices = [...dataClasses, ...effective.dataClasses.filter((name) => !dataClasses.some((known) => known.toLowerCase() === name.toLowerCase()))];
  const shownFilter = run?.status === 'done' && run.filters && lastSent === JSON.stringify(compiled ?? {}) ? mergeShown(run.filters, questionFilter(understood.parts)) : applied;
  const remoteReady = remote?.instance !== undefined && remote.hasToken;

  return (
    <div className="page search-page">
      <header className="page-head">
        <h1 className="page-title">Search</h1>
      </header>
      <DemoLabel />

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
            onChange={(e) => changeQuery(e.target.value)}
            placeholder="e.g. which of my breaches leaked passwords after 2020?"
            maxLength={2000}
          />
          <button type="submit" className="button button-primary" disabled={run?.status === 'running'}>
            Search
          </button>
        </div>

        <QuestionChips parts={understood.parts} remaining={understood.remaining} onRemove={dismiss} />

        <button type="button" className="button button-quiet search-options-toggle" aria-expanded={showOptions} aria-controls={`${id}-options`} onClick={() => setShowOptions((v) => !v)}>
          Filters and options{setByHand > 0 ? ` (${setByHand} set)` : ''}
        </button>
        {showOptions ? (
          <div id={`${id}-options`} className="search-options">
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
              {classChoices.length > 0 ? (
                <div className="chip-group" role="group" aria-label="Data classes">
                  {classChoices.map((name) => {
                    const on = effective.dataClasses.some((chosen) => chosen.toLowerCase() === name.toLowerCase());
                    return (
                      <label key={name} className={on ? 'chip is-on' : 'chip'}>
                        <input type="checkbox" checked={on} onChange={(e) => toggleClass(name, e.target.checked)} /> {name}
                      </label>
                    );
                  })}
                </div>
              ) : null}
              <div className="search-chip-row">
                <label>
                  Breached from <input type="date" className="input" value={effective.breachedFrom} onChange={(e) => setControl('dates', { breachedFrom: e.target.value })} />
                </label>
                <label>
                  Breached until <input type="date" className="input" value={effective.breachedUntil} onChange={(e) => setControl('dates', { breachedUntil: e.target.value })} />
                </label>
                <label>
                  Sensitive{' '}
                  <select
                    className="input"
                    value={showSensitive ? effective.sensitive : 'exclude'}
                    disabled={!showSensitive}
                    aria-describedby={showSensitive ? undefined : 'search-sensitive-hint'}
                    onChange={(e) => setControl('sensitive', { sensitive: e.target.value as SearchChips['sensitive'] })}
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
                  <input type="checkbox" checked={effective.verified === 'only'} onChange={(e) => setControl('verified', { verified: e.target.checked ? 'only' : 'any' })} /> Verified only
                </label>
                <label className="check-field">
                  <input type="checkbox" checked={engine === 'embedded' || onlyMine} disabled={engine === 'embedded'} onChange={(e) => setOnlyMine(e.target.checked)} /> Only breaches naming me
                </label>
              </div>
              <button type="button" className="button button-quiet" aria-expanded={showFilter} aria-controls={`${id}-filter`} onClick={() => setShowFilter((v) => !v)}>
                {showFilter ? 'Hide filter' : 'Show filter'}
              </button>
              {showFilter ? (
                <div id={`${id}-filter`}>
                  <pre className="search-filter-json" aria-label="Filter in the metadata filter format" aria-describedby={`${id}-filter-note`}>
                    {JSON.stringify(shownFilter ? readableFilter(shownFilter, BREACH_FILTER_FIELDS) : {}, null, 2)}
                  </pre>
                  <p id={`${id}-filter-note`} className="muted search-filter-note">
                    Dates are shown as days (UTC); the filter sends them as seconds since 1970.
                  </p>
                </div>
              ) : null}
            </fieldset>
          </div>
        ) : null}
      </form>

      <SearchResults filtersHash={filtersOfRoute} parts={understood.parts} remaining={understood.remaining} />
      <RemoteInstanceForm />
      <Credit />
    </div>
  );
}

function SearchResults({ filtersHash, parts, remaining }: { filtersHash: ReturnType<typeof useRoute.getState>['route']['filters']; parts: readonly QueryPart[]; remaining: string }) {
  const run = useSearch((s) => s.run);
  const demo = useChecks((s) => s.view.source === 'demo');
  if (!run)
    return (
      <EmptyState icon="search" title="Ask about your breaches">
        Ask a question — “the 5 largest breaches”, “how many breaches exposed my phone number?”, “unverified breaches since 2019 with passwords” — and press Search.
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
          Try other words, or remove a chip.
        </EmptyState>
      ) : (
        <>
          {run.sentence ? (
            <p className="search-sentence">
              <span role="status">{run.sentence}</span>
              {demo ? <span className="badge search-demo-badge">Demo data</span> : null}
            </p>
          ) : null}
          <p className="search-count">
            <span role={run.sentence ? undefined : 'status'}>{matchCount(run.chunks.length, run.maxResults, run.total)}</span>
            {demo ? <span className="muted"> — invented demo breaches</span> : null}
          </p>
          <ol className="search-chunks" aria-label="Matching breaches">
            {run.chunks.map((chunk) => {
              const breachId = breachIdOfKey(chunk.item.key) ?? chunk.item.key;
              const { domain, breachDate, pwnCount } = chunk.item.metadata;
              const matched = matchedOf(chunk, parts, remaining);
              return (
                <li key={chunk.id} className="search-chunk">
                  <a href={formatHash({ screen: 'breaches', filters: filtersHash, breachId })} className="search-chunk-title">
                    {chunk.item.metadata.title}
                  </a>{' '}
                  <span className="muted">
                    {domain || 'no domain'} · breached {new Date(breachDate * 1000).toISOString().slice(0, 10)} · {pwnCount.toLocaleString('en-US')} accounts
                  </span>
                  {demo ? <span className="badge search-demo-badge">Demo</span> : null}
                  {matched.chips.length > 0 || matched.words.length > 0 ? (
                    <p className="search-matched">
                      <span className="muted">Matched: </span>
                      {matched.chips.map((label) => (
                        <span key={label} className="chip is-on search-matched-chip">
                          {label}
                        </span>
                      ))}
                      {matched.words.length > 0 ? <span className="muted"> {matched.words.map((word) => `“${word}”`).join(', ')}</span> : null}
                    </p>
                  ) : null}
                  <p className="search-chunk-text">{chunk.text.length > 400 ? chunk.text.slice(0, 397) + '…' : chunk.text}</p>
                </li>
              );
            })}
          </ol>
        </>
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

/**
 * What made a result a match, instead of a score: the question's chips that hold for it (for a
 * data class, the classes it reached that this breach exposed: "credit cards" → "Partial credit
 * card data") and the ranked words its text contains.
 */
function matchedOf(chunk: SearchChunk, parts: readonly QueryPart[], remaining: string): { chips: string[]; words: string[] } {
  const { dataClasses, domain } = chunk.item.metadata;
  const has = new Set(dataClasses.map((name) => name.toLowerCase()));
  const chips: string[] = [];
  for (const part of parts) {
    if (part.kind === 'dataClass' && !part.negated) chips.push(...part.reaches.filter((name) => has.has(name.toLowerCase())));
    else if (part.kind === 'domain') {
      if (part.domain === domain) chips.push(part.label);
    } else if (part.kind !== 'count') chips.push(part.label);
  }
  const text = chunk.text.toLowerCase();
  const words = remaining === '' ? [] : remaining.split(' ').filter((word) => word.length > 1 && text.includes(word));
  return { chips: [...new Set(chips)], words };
}

/** The filter "Show filter" shows: the chips' filter, the question's parts over it. */
function mergeShown(hand: MetadataFilter | undefined, question: MetadataFilter | undefined): MetadataFilter | undefined {
  if (!hand) return question;
  if (!question) return hand;
  return { ...hand, ...question };
}

/** How many controls the person set by hand (the folded control says so). */
function countSet(chips: SearchChips): number {
  return chips.dataClasses.length + (chips.breachedFrom ? 1 : 0) + (chips.breachedUntil ? 1 : 0) + (chips.verified !== 'any' ? 1 : 0) + (chips.sensitive === 'only' ? 1 : 0);
}

/** "N breaches match", saying so when the page is full and more may match, or how many of all are shown. */
function matchCount(count: number, asked: number | undefined, total: number | undefined): string {
  if (total !== undefined && total > count) return `${total.toLocaleString('en-US')} breaches match; the first ${count} are shown`;
  if (total === undefined && asked !== undefined && count >= asked) return `The ${count} best matches (more breaches may match)`;
  return count === 1 ? 'One breach matches' : `${count} breaches match`;
}

/**
 * What the question was understood to ask, as chips: each removable (it then stays removed
 * while the question says it, and that bit of the question is ignored), and what is left to rank.
 */
function QuestionChips({ parts, remaining, onRemove }: { parts: readonly QueryPart[]; remaining: string; onRemove(key: string): void }) {
  if (parts.length === 0) return null;
  return (
    <div className="search-understood">
      <span className="field-label" aria-hidden="true">
        From your question
      </span>
      <ul className="search-understood-chips" aria-label="Understood from your question">
        {parts.map((part) => (
          <li key={part.key} className="chip is-on">
            <span>{part.label}</span>
            <button type="button" className="chip-remove" aria-label={`Remove ${part.label}`} title={`Remove ${part.label}`} onClick={() => onRemove(part.key)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <p className="muted search-understood-rest">{remaining ? `Ranked by the words “${remaining}”.` : 'No words left to rank: the filters decide.'}</p>
    </div>
  );
}
