import { useEffect, useId, useState } from 'react';
import { advancedFilterOf } from '../../lib/urlState.ts';

const EXAMPLE = '{"dataClasses": "Passwords", "breachDate": {"$gte": 1577836800}}';

/** Problems of a filter text, each "pointer: message", checked by the search interface's own filter engine. */
async function problemsOf(text: string): Promise<string[]> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return [`not valid JSON: ${error instanceof Error ? error.message : String(error)}`];
  }
  // Loaded when first used: the filter engine brings zod, which the list's first paint does not need.
  const [{ parseMetadataFilter, FilterError }, { BREACH_FILTER_FIELDS }] = await Promise.all([import('../../../shared/search/filter.ts'), import('../../../shared/search/document.ts')]);
  try {
    parseMetadataFilter(value, BREACH_FILTER_FIELDS);
  } catch (error) {
    if (error instanceof FilterError) return error.issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`);
    throw error;
  }
  return advancedFilterOf(text) ? [] : ['an empty filter keeps every breach; remove it instead'];
}

/**
 * The list's advanced filter: a metadata filter in the search interface's new format (the one
 * the Search page's chips compile to), for what the chips above cannot say, such as a date range
 * or "not this domain". Applied by the core with the same filter engine as search.
 */
export function AdvancedFilter({ value, onApply }: { value: string | undefined; onApply(filter: string | undefined): void }) {
  const id = useId();
  const [draft, setDraft] = useState(value ?? '');
  const [problems, setProblems] = useState<string[]>([]);
  useEffect(() => {
    setDraft(value ?? '');
    setProblems([]);
  }, [value]);

  const apply = async () => {
    if (draft.trim() === '') {
      setProblems([]);
      onApply(undefined);
      return;
    }
    const found = await problemsOf(draft);
    setProblems(found);
    if (found.length === 0) onApply(advancedFilterOf(draft));
  };

  return (
    <details className="advanced-filter" open={value !== undefined || undefined}>
      <summary>Advanced filter</summary>
      <form
        className="advanced-filter-form"
        onSubmit={(event) => {
          event.preventDefault();
          void apply();
        }}
      >
        <label className="field-label" htmlFor={`${id}-json`}>
          Metadata filter (JSON)
        </label>
        <p className="field-hint" id={`${id}-hint`}>
          Fields: title, domain, breachDate (seconds), dataClasses, isSensitive, isVerified, pwnCount, key. A value matches exactly (a data class: is among them); operators: $eq, $ne, $gt, $gte, $lt,
          $lte, $in, $nin. Fields all match.
        </p>
        <textarea
          id={`${id}-json`}
          className="input input-code"
          rows={3}
          spellCheck={false}
          placeholder={EXAMPLE}
          value={draft}
          aria-describedby={`${id}-hint${problems.length > 0 ? ` ${id}-problems` : ''}`}
          aria-invalid={problems.length > 0 || undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              void apply();
            }
          }}
        />
        {problems.length > 0 ? (
          <ul className="field-error" id={`${id}-problems`} role="alert" aria-label="Problems with the advanced filter">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
        <div className="button-row">
          <button type="submit" className="button button-small">
            Apply filter
          </button>
          {value !== undefined ? (
            <button type="button" className="button button-ghost button-small" onClick={() => onApply(undefined)}>
              Remove advanced filter
            </button>
          ) : null}
        </div>
      </form>
    </details>
  );
}
