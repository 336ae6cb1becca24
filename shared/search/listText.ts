import { dataClassKey } from '../api/primitives.ts';
import { understandQuery } from './understandQuery.ts';

/**
 * The breaches list's text box, understood as the Search page understands a question:
 * "passwords" is the data class (not a breach whose name contains the word), "after 2020" a
 * breach date range, and every other word must appear in the breach's id, its domain or one of
 * its data class names ("pass" as it is typed, "adobe", "dobe.co"). Domains are words here, as
 * in the list's domain field: a domain half typed ("adobe.co") must not empty the list.
 *
 * The list has no sensitive or verified words: whether sensitive breaches show is the
 * "Include sensitive breaches" setting's job, not a word's.
 */
export interface ListTextMatch {
  /** Breaches that exposed any of these (as the list's data class filter). */
  dataClasses: string[];
  /** Inclusive `YYYY-MM-DD` breach date bounds. */
  from?: string;
  until?: string;
  /** Each one a case-insensitive substring of the id, the domain or a data class name. */
  words: string[];
  /** Text that names nothing, matched as the box always did: a substring of the id or the domain. */
  asTyped?: string;
}

export interface ListTextOptions {
  now?: Date | number;
  /** The data class names the store holds, in their spelling. */
  dataClasses?: readonly string[];
}

/** What the text box asks for; undefined when it asks nothing (empty or blank). */
export function understandListText(text: string, options: ListTextOptions = {}): ListTextMatch | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  const { parts, remaining } = understandQuery(trimmed, { ...options, kinds: ['dataClass', 'dates'] });
  const match: ListTextMatch = { dataClasses: [], words: remaining === '' ? [] : remaining.split(' ') };
  for (const part of parts) {
    // A negated class ("without passwords") is not something the box filters by: its words stay
    // words, as they always were (they match no breach's id, domain or class).
    if (part.kind === 'dataClass' && part.negated) match.words.push(...part.text.split(' '));
    else if (part.kind === 'dataClass') match.dataClasses.push(...part.reaches);
    if (part.kind !== 'dates') continue;
    // Several date phrases all apply: the latest start and the earliest end.
    if (part.from !== undefined && (match.from === undefined || part.from > match.from)) match.from = part.from;
    if (part.until !== undefined && (match.until === undefined || part.until < match.until)) match.until = part.until;
  }
  // Text that names nothing and is made only of question words ("the", "%") is matched as typed,
  // as the box always did: a breach called "Which" stays findable.
  if (parts.length === 0 && match.words.length === 0) match.asTyped = trimmed.toLowerCase();
  return match;
}

/** Whether a breach matches the text box (the core's SQL says the same: electron/core/queries/filterSql.ts). */
export function matchesListText(breach: { id: string; domain: string; breachDate: string; dataClasses: readonly string[] }, match: ListTextMatch): boolean {
  if (match.dataClasses.length > 0) {
    const wanted = new Set(match.dataClasses.map(dataClassKey));
    if (!breach.dataClasses.some((name) => wanted.has(dataClassKey(name)))) return false;
  }
  if (match.from !== undefined && breach.breachDate < match.from) return false;
  if (match.until !== undefined && breach.breachDate > match.until) return false;
  if (match.asTyped !== undefined && !breach.id.toLowerCase().includes(match.asTyped) && !breach.domain.toLowerCase().includes(match.asTyped)) return false;
  const haystacks = [breach.id, breach.domain, ...breach.dataClasses].map((value) => value.toLowerCase());
  return match.words.every((word) => haystacks.some((haystack) => haystack.includes(word)));
}
