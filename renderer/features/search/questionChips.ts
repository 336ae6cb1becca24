import type { QueryPart } from '../../../shared/search/understandQuery.ts';
import type { SearchChips } from './compileFilters.ts';

/**
 * The chips that apply: those set by hand plus those the question names (shared/search's
 * understandQuery). Data classes and domains add up (any of them, as the chips always meant);
 * date bounds all apply (the latest start, the earliest end); "sensitive" and "verified" in the
 * question say more than a control left as it was, so they win until their chip is removed.
 */
export function withQuestion(chips: SearchChips, parts: readonly QueryPart[]): SearchChips {
  const merged: SearchChips = { ...chips, dataClasses: [...chips.dataClasses], domains: [...chips.domains] };
  const key = (name: string) => name.toLowerCase();
  for (const part of parts) {
    switch (part.kind) {
      case 'dataClass':
        if (part.negated) break;
        if (!merged.dataClasses.some((name) => key(name) === key(part.dataClass))) merged.dataClasses.push(part.dataClass);
        break;
      case 'domain':
        if (!merged.domains.includes(part.domain)) merged.domains.push(part.domain);
        break;
      case 'dates':
        if (part.from !== undefined && (merged.breachedFrom === '' || part.from > merged.breachedFrom)) merged.breachedFrom = part.from;
        if (part.until !== undefined && (merged.breachedUntil === '' || part.until < merged.breachedUntil)) merged.breachedUntil = part.until;
        break;
      case 'sensitive':
        merged.sensitive = part.sensitive ? 'only' : 'exclude';
        break;
      case 'verified':
        if (part.verified) merged.verified = 'only';
        break;
      default:
        break;
    }
  }
  return merged;
}

/** Which parts set which control. */
const CONTROLS = { dates: ['dates'], sensitive: ['sensitive'], verified: ['verified'] } as const satisfies Record<string, readonly QueryPart['kind'][]>;

/**
 * A control the question set is changed by hand: the control takes over. What applied until now
 * is kept as set by hand (so changing "Breached until" keeps the start "In 2019" gave), and the
 * question's parts for that control are removed (their keys, for the dismissed list).
 */
export function takeOver(chips: SearchChips, parts: readonly QueryPart[], control: keyof typeof CONTROLS): { chips: SearchChips; dismissed: string[] } {
  const kinds: readonly QueryPart['kind'][] = CONTROLS[control];
  const own = parts.filter((part) => kinds.includes(part.kind));
  const applied = withQuestion(chips, own);
  return { chips: applied, dismissed: own.map((part) => part.key) };
}
