import { dataClassKey, emailKey, type Breach } from '../../shared/api/index.ts';
import { compareIds } from './dataClasses.ts';
import { createRng, hashString } from './prng.ts';

export interface DemoExposureOptions {
  /** Fewest breaches per email (default 5), capped by the catalog size. */
  min?: number;
  /** Most breaches per email (default 25). */
  max?: number;
}

const DEFAULT_MIN = 5;
const DEFAULT_MAX = 25;
const PASSWORDS_KEY = dataClassKey('Passwords');
const YEAR = 365.25 * 24 * 60 * 60 * 1000;

/**
 * The breach ids a demo email is "found in", ordered by id. Seeded by the email's key, so the
 * same address gets the same breaches on every run, whatever its case, and whatever order the
 * catalog comes in. Older breaches and breaches with more data classes are likelier, as a
 * real address is likelier to be in long-circulating, larger dumps. When the catalog has
 * them, the pick always includes a sensitive breach and one that leaked passwords, so every
 * demo account shows those screens.
 */
export function demoExposuresFor(email: string, catalog: readonly Breach[], options: DemoExposureOptions = {}): string[] {
  const min = options.min ?? DEFAULT_MIN;
  const max = options.max ?? DEFAULT_MAX;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min) throw new RangeError(`need integers 0 <= min <= max, got min ${min}, max ${max}`);
  if (catalog.length === 0) return [];

  const rng = createRng(hashString(emailKey(email)));
  const breaches = [...catalog].sort((a, b) => compareIds(a.id, b.id));
  const newest = Math.max(...breaches.map((b) => Date.parse(b.addedDate)));
  // Efraimidis–Spirakis: ranking by -ln(u)/w is a weighted sample without replacement.
  const ranked = breaches
    .map((breach) => ({ breach, rank: -Math.log(1 - rng.next()) / weightOf(breach, newest) }))
    .sort((a, b) => a.rank - b.rank)
    .map(({ breach }) => breach);
  const size = Math.min(rng.int(min, max), ranked.length);

  const required = [ranked.find((b) => b.isSensitive), ranked.find(hasPasswords)].filter((b) => b !== undefined);
  const picked = new Set<Breach>(required.slice(0, size));
  for (const breach of ranked) {
    if (picked.size >= size) break;
    picked.add(breach);
  }
  return [...picked].map((b) => b.id).sort(compareIds);
}

/** Relative to the catalog's newest breach, not the clock, so the pick never drifts over time. */
function weightOf(breach: Breach, newest: number): number {
  const ageYears = Math.max(0, (newest - Date.parse(breach.addedDate)) / YEAR);
  return (1 + ageYears / 4) * (1 + breach.dataClasses.length / 8);
}

function hasPasswords(breach: Breach): boolean {
  return breach.dataClasses.some((name) => dataClassKey(name) === PASSWORDS_KEY);
}
