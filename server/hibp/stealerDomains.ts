import { MAX_STEALER_DOMAINS, StealerLogDomain } from '../../shared/api/index.ts';

/**
 * What the service keeps of a stealer-log answer: the entries that are website domains
 * ({@link StealerLogDomain}, lower-cased), without repeats, sorted, at most
 * {@link MAX_STEALER_DOMAINS}. Anything else (a 100 KB string, a number) is left out and
 * counted in `dropped`, so one odd entry neither fails the address's check nor reaches the store.
 */
export function boundStealerDomains(entries: readonly unknown[]): { domains: string[]; dropped: number } {
  const kept = new Set<string>();
  let dropped = 0;
  for (const entry of entries) {
    // Only a string that could be a domain is lower-cased and checked: no work on a huge one.
    const domain = typeof entry === 'string' && entry.length <= 253 ? entry.trim().toLowerCase() : undefined;
    if (domain !== undefined && StealerLogDomain.safeParse(domain).success) kept.add(domain);
    else dropped++;
  }
  const domains = [...kept].sort();
  if (domains.length > MAX_STEALER_DOMAINS) dropped += domains.length - MAX_STEALER_DOMAINS;
  return { domains: domains.slice(0, MAX_STEALER_DOMAINS), dropped };
}
