import type { MetadataFilter } from '../../../shared/search/index.ts';

/** The Search page's filter chips. Dates are `YYYY-MM-DD` from date fields, '' when unset. */
export interface SearchChips {
  dataClasses: string[];
  /** Exact domains, any of them (from the question: "adobe.com"). */
  domains: string[];
  breachedFrom: string;
  breachedUntil: string;
  sensitive: 'any' | 'only' | 'exclude';
  verified: 'any' | 'only';
}

export const NO_CHIPS: SearchChips = { dataClasses: [], domains: [], breachedFrom: '', breachedUntil: '', sensitive: 'any', verified: 'any' };

const seconds = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / 1000);
const DAY = 24 * 3600;

/**
 * The chips in the new metadata filter format (what is sent, and what "Show filter" shows):
 * data classes and domains as `$in` (any of them), the date range as integer seconds with the end day
 * included, the flags as plain values. Undefined when no chip is set.
 */
export function compileFilters(chips: SearchChips): MetadataFilter | undefined {
  const filter: MetadataFilter = {};
  if (chips.dataClasses.length === 1) filter.dataClasses = chips.dataClasses[0]!;
  else if (chips.dataClasses.length > 1) filter.dataClasses = { $in: chips.dataClasses };
  if (chips.domains.length === 1) filter.domain = chips.domains[0]!;
  else if (chips.domains.length > 1) filter.domain = { $in: chips.domains };
  const range: { $gte?: number; $lt?: number } = {};
  if (chips.breachedFrom) range.$gte = seconds(chips.breachedFrom);
  if (chips.breachedUntil) range.$lt = seconds(chips.breachedUntil) + DAY;
  if (range.$gte !== undefined || range.$lt !== undefined) filter.breachDate = range;
  if (chips.sensitive !== 'any') filter.isSensitive = chips.sensitive === 'only';
  if (chips.verified === 'only') filter.isVerified = true;
  return Object.keys(filter).length > 0 ? filter : undefined;
}
