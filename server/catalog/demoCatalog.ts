import { Breach, toMinutePrecision } from '../../shared/api/index.ts';
import { compareIds, normalizeDataClasses } from './dataClasses.ts';
import {
  BREACH_YEAR_WEIGHTS,
  COMPANY_PREFIXES,
  COMPANY_QUALIFIERS,
  COMPANY_SUFFIXES,
  DATA_CLASS_WEIGHTS,
  DEMO_DOMAIN_SUFFIX,
  DOMAINLESS_SUFFIXES,
  EMAIL_ADDRESSES,
  EXTRA_CLASS_COUNT_WEIGHTS,
  FIRST_BREACH_YEAR,
  INTIMATE_DATA_CLASSES,
  PASSWORDS,
  SENSITIVE_SUFFIXES,
} from './demoWords.ts';
import { createRng, type Rng } from './prng.ts';

export const DEFAULT_DEMO_SEED = 20260214;
export const DEFAULT_DEMO_COUNT = 300;
/** Far above any benchmark's need, and well inside the name space of the word lists. */
export const MAX_DEMO_COUNT = 20_000;

/**
 * Exact shares (rounded to whole breaches) rather than per-breach coin flips, so every seed
 * and size has the same mix and tests can state it without tolerances.
 */
export const DEMO_PROPORTIONS = { sensitive: 0.1, emptyDomain: 0.02, modified: 0.15 } as const;

export interface DemoCatalogOptions {
  seed?: number;
  count?: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const LAST_BREACH_DAY = Date.UTC(2025, 9, 31);
/** At least 61 days after the last breach day, so every breach has room for a delay. */
const LAST_ADDED = Date.UTC(2025, 11, 31, 23, 59);
/** A month after the last possible addedDate, so a modified breach always has room to differ. */
const LAST_MODIFIED = Date.UTC(2026, 0, 31, 23, 59);
const REBREACH_SHARE = 0.04;
const PASSWORDS_SHARE = 0.72;

interface Company {
  name: string;
  domain: string;
}

/** A deterministic, realistic-looking catalog of fictional breaches, ordered by id. */
export function generateDemoCatalog(options: DemoCatalogOptions = {}): Breach[] {
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const count = options.count ?? DEFAULT_DEMO_COUNT;
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(count) || count < 0 || count > MAX_DEMO_COUNT) throw new RangeError(`count must be an integer from 0 to ${MAX_DEMO_COUNT}, got ${count}`);

  const rng = createRng(seed);
  const sensitive = chooseIndexes(rng, count, DEMO_PROPORTIONS.sensitive);
  const domainless = chooseIndexes(rng, count, DEMO_PROPORTIONS.emptyDomain);
  const modified = chooseIndexes(rng, count, DEMO_PROPORTIONS.modified);

  const ids = new Set<string>();
  const companies: Company[] = [];
  const breaches: Breach[] = [];
  for (let i = 0; i < count; i++) {
    const isSensitive = sensitive.has(i);
    const breachDay = drawBreachDay(rng);
    const addedMs = breachDay + drawDelayDays(rng, breachDay) * DAY + rng.int(0, 24 * 60 - 1) * MINUTE;
    const modifiedMs = modified.has(i) ? addedMs + drawModificationMinutes(rng, addedMs) * MINUTE : addedMs;
    const { name: id, domain } = domainless.has(i)
      ? { name: newCompanyName(rng, ids, DOMAINLESS_SUFFIXES), domain: '' }
      : drawCompanyBreach(rng, ids, companies, isSensitive, new Date(breachDay).getUTCFullYear());
    ids.add(id);
    breaches.push(
      Breach.parse({
        id,
        domain,
        breachDate: new Date(breachDay).toISOString().slice(0, 10),
        addedDate: toMinutePrecision(new Date(addedMs).toISOString()),
        modifiedDate: toMinutePrecision(new Date(modifiedMs).toISOString()),
        dataClasses: drawDataClasses(rng, isSensitive),
        isSensitive,
      }),
    );
  }
  return breaches.sort((a, b) => compareIds(a.id, b.id));
}

function chooseIndexes(rng: Rng, count: number, share: number): Set<number> {
  const indexes = Array.from({ length: count }, (_, i) => i);
  return new Set(rng.shuffled(indexes).slice(0, Math.round(count * share)));
}

function drawBreachDay(rng: Rng): number {
  const year = FIRST_BREACH_YEAR + rng.weightedIndex(BREACH_YEAR_WEIGHTS);
  const start = Date.UTC(year, 0, 1);
  const end = Math.min(Date.UTC(year, 11, 31), LAST_BREACH_DAY);
  return start + rng.int(0, Math.round((end - start) / DAY)) * DAY;
}

/**
 * Breaches surface days to years after they happen; at least one day, so breachDate <
 * addedDate. A delay past the end of the demo's time range is redrawn within it rather than
 * clamped, which would pile breaches up on the last day.
 */
function drawDelayDays(rng: Rng, breachDay: number): number {
  const r = rng.next();
  const delay = r < 0.4 ? rng.int(1, 60) : r < 0.75 ? rng.int(61, 720) : rng.int(721, 2800);
  const room = Math.floor((LAST_ADDED - breachDay) / DAY);
  return delay <= room ? delay : rng.int(1, room);
}

/** Log-uniform from a minute to three years: most edits come soon after adding, some much later. */
function drawModificationMinutes(rng: Rng, addedMs: number): number {
  const minutes = Math.max(1, Math.round(Math.exp(rng.next() * Math.log(3 * 365 * 24 * 60))));
  const room = Math.floor((LAST_MODIFIED - addedMs) / MINUTE);
  return minutes <= room ? minutes : rng.int(1, room);
}

/**
 * The breached site's id and domain. A few companies are breached twice; the second breach
 * carries the year in its id and shares the domain, as in the real catalog.
 */
function drawCompanyBreach(rng: Rng, ids: Set<string>, companies: Company[], isSensitive: boolean, year: number): Company {
  if (companies.length >= 20 && rng.chance(REBREACH_SHARE)) {
    const earlier = rng.pick(companies);
    const id = `${earlier.name}${year}`;
    if (!ids.has(id)) return { name: id, domain: earlier.domain };
  }
  const suffixes = isSensitive && rng.chance(0.7) ? SENSITIVE_SUFFIXES : COMPANY_SUFFIXES;
  const name = newCompanyName(rng, ids, suffixes);
  // Where a top-level domain (.com, .net, …) was drawn, one draw stays, so every later draw is
  // what it was: the catalog's ids, dates and data classes did not move when its domains became
  // reserved names.
  rng.next();
  const company = { name, domain: `${name.toLowerCase()}.${DEMO_DOMAIN_SUFFIX}` };
  companies.push(company);
  return company;
}

function newCompanyName(rng: Rng, ids: Set<string>, suffixes: readonly string[]): string {
  for (let attempt = 0; attempt < 1000; attempt++) {
    let name = rng.pick(COMPANY_PREFIXES) + rng.pick(suffixes);
    if (attempt >= 8 || rng.chance(0.05)) name += rng.pick(COMPANY_QUALIFIERS);
    if (!ids.has(name)) return name;
  }
  throw new RangeError('ran out of unique demo company names');
}

/**
 * Passwords get their own coin: drawn by weight without replacement, a class that is in three
 * of four real breaches would come out far less often in breaches with few classes.
 */
function drawDataClasses(rng: Rng, isSensitive: boolean): string[] {
  const weights = DATA_CLASS_WEIGHTS.map(([name, weight]) => (name === PASSWORDS ? 0 : isSensitive && INTIMATE_DATA_CLASSES.has(name) ? weight * 15 : weight));
  const extra = 1 + rng.weightedIndex(EXTRA_CLASS_COUNT_WEIGHTS);
  const chosen = [EMAIL_ADDRESSES];
  if (rng.chance(PASSWORDS_SHARE)) chosen.push(PASSWORDS);
  while (chosen.length < extra + 1) {
    const index = rng.weightedIndex(weights);
    chosen.push((DATA_CLASS_WEIGHTS[index] as readonly [string, number])[0]);
    weights[index] = 0;
  }
  return normalizeDataClasses(chosen);
}
