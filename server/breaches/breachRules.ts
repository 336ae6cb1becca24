import { Breach, CatalogOrigin, dataClassKey, emailKey, IsoDateTime } from '../../shared/api/index.ts';
import type { Account, CatalogReplacement, ResolutionChange } from './BreachStore.ts';
import { InvalidBreachError, ResolutionChangeError } from './errors.ts';

// The breach store's rules, kept above its SQLite and PostgreSQL implementations so both hold
// exactly the same ones (test/server/store/breachStore.contract.test.ts runs them on each).

/** `breach` checked against the contract's schema; the error names the field and, for a list, the index. */
export function validBreach(breach: Breach, index?: number): Breach {
  const parsed = Breach.safeParse(breach);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = index === undefined ? '' : ` (catalog index ${index})`;
  const field = issue && issue.path.length > 0 ? ` ${issue.path.join('.')}:` : '';
  const id = typeof breach === 'object' && breach !== null ? (breach as { id?: unknown }).id : undefined;
  throw new InvalidBreachError(id, `not a valid Breach${where}:${field} ${issue?.message ?? 'invalid'}`);
}

/** Each breach checked, and no id twice (the error names the record). */
export function distinctValidBreaches(breaches: readonly Breach[]): Breach[] {
  const seen = new Set<string>();
  return breaches.map((breach, index) => {
    const checked = validBreach(breach, index);
    if (seen.has(checked.id)) throw new InvalidBreachError(checked.id, `appears twice in the catalog (again at index ${index})`);
    seen.add(checked.id);
    return checked;
  });
}

/** A breach's data classes by {@link dataClassKey}, each with the breach's own spelling (the first, should two spellings share a key). */
export function dataClassSpellings(dataClasses: readonly string[]): Map<string, string> {
  const classes = new Map<string, string>();
  for (const name of dataClasses) if (!classes.has(dataClassKey(name))) classes.set(dataClassKey(name), name);
  return classes;
}

/** A resolution change as it is stored: email and data class in key form, the breach's spelling beside. */
export interface CheckedResolutionChange {
  email: string;
  breachId: string;
  key: string;
  spelling: string;
  resolved: boolean;
}

/**
 * Checks change `index` of a batch against the catalog as the writing transaction reads it
 * (`classesById`: {@link dataClassSpellings} per breach id, breaches that left the catalog
 * included, by their last known data classes): a non-empty email, a breach the store has, one of
 * its data classes. Throws {@link ResolutionChangeError} otherwise.
 */
export function checkResolutionChange(change: ResolutionChange, index: number, classesById: ReadonlyMap<string, ReadonlyMap<string, string>>): CheckedResolutionChange {
  const email = emailKey(change.email);
  if (email === '') throw new ResolutionChangeError(index, change, 'invalid-email', 'the email is empty');
  const classes = classesById.get(change.breachId);
  if (!classes) throw new ResolutionChangeError(index, change, 'unknown-breach', `the catalog has no breach "${change.breachId}"`);
  const key = dataClassKey(change.dataClass);
  const spelling = classes.get(key);
  if (spelling === undefined) throw new ResolutionChangeError(index, change, 'unknown-data-class', `breach "${change.breachId}" has no data class "${change.dataClass}"`);
  return { email, breachId: change.breachId, key, spelling, resolved: change.resolved };
}

/** An account as stored: a non-empty sub, its emails in `emailKey` form, each once, empty ones dropped. */
export function validAccount(account: Account): Account {
  if (account.sub === '') throw new RangeError('an account needs a non-empty sub');
  return { sub: account.sub, emails: [...new Set(account.emails.map(emailKey))].filter((email) => email !== ''), deleted: account.deleted };
}

/** The sub of a monitoring user to create (never empty). */
export function validUserSub(sub: string): string {
  if (sub === '') throw new RangeError('a user needs a non-empty sub');
  return sub;
}

/** The key an exposure record is stored under: `emailKey(email)`, never empty. */
export function exposureEmailKey(email: string): string {
  const key = emailKey(email);
  if (key === '') throw new RangeError('exposures need a non-empty email');
  return key;
}

/** A batch's `resolvedAt`, which must be an ISO 8601 date-time. */
export function validResolvedAt(now: string): string {
  if (!IsoDateTime.safeParse(now).success) throw new RangeError(`resolvedAt must be an ISO 8601 date-time, got ${JSON.stringify(now)}`);
  return now;
}

/** A catalog replacement's description, when given: a known origin (zod's error otherwise) and an ISO 8601 time. */
export function validCatalogReplacement(replacement: CatalogReplacement | undefined): CatalogReplacement | undefined {
  if (replacement) {
    CatalogOrigin.parse(replacement.origin);
    if (!IsoDateTime.safeParse(replacement.at).success) throw new RangeError(`a catalog replacement's time must be an ISO 8601 date-time, got ${JSON.stringify(replacement.at)}`);
  }
  return replacement;
}

/** The change recorded when invented exposures are removed: an ISO 8601 time and the catalog switched to. */
export function validInventedRemoval(change: { at: string; to: CatalogOrigin }): { at: string; to: CatalogOrigin } {
  if (!IsoDateTime.safeParse(change.at).success) throw new RangeError(`a change's time must be an ISO 8601 date-time, got ${JSON.stringify(change.at)}`);
  return { at: change.at, to: CatalogOrigin.parse(change.to) };
}
