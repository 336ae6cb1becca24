/**
 * The one sensitive-breach policy, for every surface that names or counts breaches: the list,
 * the new-breach banner, notifications, the tray, the guided fix, Search, the overview, the graph
 * and the reports. A sensitive breach is one whose mere presence says something private about a
 * person (Have I Been Pwned: "sensitive breaches are not publicly searchable",
 * https://haveibeenpwned.com/FAQs — dating and adult sites, for instance); it is hidden
 * everywhere unless the person opted in with the one setting `showSensitive`.
 */
export interface SensitivePolicy {
  readonly showSensitive: boolean;
}

/** The default: hidden until the person says otherwise. */
export const HIDE_SENSITIVE: SensitivePolicy = Object.freeze({ showSensitive: false });

/** The policy a settings object sets (an absent setting is the default). */
export function sensitivePolicyOf(settings: { showSensitive?: boolean | undefined }): SensitivePolicy {
  return settings.showSensitive === true ? { showSensitive: true } : HIDE_SENSITIVE;
}

/** Whether this breach may be named or counted. */
export function isShown(breach: { isSensitive: boolean }, policy: SensitivePolicy): boolean {
  return policy.showSensitive || !breach.isSensitive;
}

/** The items that may show, and how many were left out for being sensitive. */
export function shownUnderPolicy<T>(items: readonly T[], breachOf: (item: T) => { isSensitive: boolean }, policy: SensitivePolicy): { shown: T[]; hidden: number } {
  const shown = items.filter((item) => isShown(breachOf(item), policy));
  return { shown, hidden: items.length - shown.length };
}

/**
 * A query's `includeSensitive` under the policy: the person's setting, or an explicit ask in
 * place (the list's "Include sensitive breaches"), which only ever adds.
 */
export function includeSensitiveUnder(policy: SensitivePolicy, asked: boolean | undefined): boolean {
  return policy.showSensitive || asked === true;
}

/** A search filter under the policy: sensitive breaches are left out unless shown. */
export function searchFilterUnder<F extends Record<string, unknown>>(filter: F | undefined, policy: SensitivePolicy): F | (F & { isSensitive: false }) | undefined {
  if (policy.showSensitive) return filter;
  return { ...(filter ?? ({} as F)), isSensitive: false };
}
