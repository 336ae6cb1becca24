import { z } from 'zod';
import { Email } from './primitives.ts';
import { BreachQuery } from './query.ts';

/**
 * How the local list is ordered. `breachDate` is the service's order (breachDate desc, then
 * addedDate desc, then id); the others fall back to it on ties.
 * `addedDate`: newest first. `name`: id A→Z, ignoring case. `unresolved`: most unresolved
 * (email, data class) pairs first.
 */
export const LocalSort = z.enum(['breachDate', 'addedDate', 'name', 'unresolved']);
export type LocalSort = z.infer<typeof LocalSort>;

/**
 * A query of the local store: the service's filters with the service's semantics
 * (CONTRACT.md), plus what only a local store can offer cheaply.
 *
 * - `text`: the list's text box, understood as the Search page understands a question
 *   (shared/search/listText.ts): data class names and synonyms ("passwords", "emails") are the
 *   data class, date phrases ("after 2020", "in 2019") the breach date, and each other word a
 *   case-insensitive substring of the breach id, its domain or a data class name.
 * - `domainContains`: case-insensitive substring of the breach's domain ("dobe" finds
 *   adobe.com), for a domain field that filters as the person types; `domain` stays exact.
 * - `email`: the per-email view. Only breaches affecting that email; `unresolvedDataClasses`
 *   asks about that email alone; each result lists only that email's state.
 * - `offset`/`limit`: a window of the ordered result (`total` counts all matches).
 */
export const LocalBreachQuery = z
  .strictObject({
    ...BreachQuery.shape,
    text: z.string().max(200, 'at most 200 characters').optional(),
    domainContains: z.string().trim().min(1, 'at least one character').max(253, 'at most 253 characters (the longest domain name)').optional(),
    sort: LocalSort.default('breachDate'),
    email: Email.optional(),
    /** Show fabricated, spam-list and retired breaches (the details feed's flags); hidden by default. */
    includeFlagged: z.boolean().optional(),
    /** Breaches to leave out (the core fills it from the details feed when `includeFlagged` is false). */
    excludeIds: z.array(z.string().min(1)).max(20_000).optional(),
    offset: z.int().min(0).default(0),
    limit: z.int().min(1).max(10_000).default(100),
  })
  .meta({ id: 'LocalBreachQuery' });
export type LocalBreachQuery = z.infer<typeof LocalBreachQuery>;
export type LocalBreachQueryInput = z.input<typeof LocalBreachQuery>;

/** One email's state in one breach as the person sees it: the service's state with their pending changes applied. */
export const LocalAccountState = z.object({
  email: z.string(),
  /** Resolved data classes (breach spelling); `resolvedAt` once the service has told it. */
  resolvedDataClasses: z.record(z.string(), z.object({ resolvedAt: z.string().optional() })),
  /** Data classes whose change has not reached the service yet. */
  pending: z.array(z.string()),
  /** Data classes whose change the service refused, with its reason. */
  failed: z.array(z.object({ dataClass: z.string(), reason: z.string(), outboxId: z.int() })),
  /** Data classes whose change is kept on this machine only: the service's contract cannot take it. */
  localOnly: z.array(z.string()).optional(),
});
export type LocalAccountState = z.infer<typeof LocalAccountState>;

export const LocalBreach = z.object({
  breach: z.object({
    id: z.string(),
    domain: z.string(),
    breachDate: z.string(),
    addedDate: z.string(),
    modifiedDate: z.string(),
    dataClasses: z.array(z.string()),
    isSensitive: z.boolean(),
  }),
  breachedAccounts: z.array(LocalAccountState),
  /** Unresolved (email, data class) pairs of this row's accounts. */
  unresolved: z.int().min(0),
});
export type LocalBreach = z.infer<typeof LocalBreach>;

export const LocalBreachPage = z.object({
  total: z.int().min(0),
  offset: z.int().min(0),
  items: z.array(LocalBreach),
});
export type LocalBreachPage = z.infer<typeof LocalBreachPage>;

/** Counts over the breaches a query matches (its window ignored). */
export const LocalCounts = z.object({
  breaches: z.int().min(0),
  /** Breaches with at least one unresolved data class. */
  unresolvedBreaches: z.int().min(0),
  byEmail: z.array(
    z.object({
      email: z.string(),
      breaches: z.int().min(0),
      /** Breaches with something still unresolved for this email. */
      unresolvedBreaches: z.int().min(0),
      /** Unresolved data classes summed over this email's breaches. */
      unresolvedDataClasses: z.int().min(0),
    }),
  ),
  byDataClass: z.array(
    z.object({
      /** As the first breach that brought it to this store spelled it. */
      dataClass: z.string(),
      breaches: z.int().min(0),
      /** Breaches where it is unresolved for at least one email. */
      unresolvedBreaches: z.int().min(0),
      /** (email, breach) pairs where it is unresolved. */
      unresolvedAccounts: z.int().min(0),
    }),
  ),
});
export type LocalCounts = z.infer<typeof LocalCounts>;
