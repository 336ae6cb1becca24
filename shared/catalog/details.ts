import { z } from 'zod';
import { IsoDate, IsoDateTime, RecordKey } from '../api/primitives.ts';

/**
 * The details of one catalog breach, as the details feed holds them at
 * `catalog/breaches/<id>` (CONTRACT.md, realtime database): Have I Been Pwned's own fields in
 * camelCase. The breach-alert contract carries only id, domain, dates, data classes and the
 * sensitive flag; everything a person reads about a breach (title, description, logo, count,
 * flags) comes from here.
 *
 * `description` is HTML from the catalog (links, emphasis): sanitize before showing it.
 * `logoPath` is an absolute URL that may well be unreachable: show a drawn fallback then.
 */
export const BreachDetails = z
  .object({
    title: z.string().min(1),
    domain: z.string(),
    breachDate: IsoDate,
    addedDate: IsoDateTime,
    modifiedDate: IsoDateTime,
    pwnCount: z.int().min(0),
    description: z.string(),
    logoPath: z.string(),
    dataClasses: z.array(z.string().min(1)),
    isVerified: z.boolean(),
    isFabricated: z.boolean(),
    isSensitive: z.boolean(),
    isRetired: z.boolean(),
    isSpamList: z.boolean(),
    isMalware: z.boolean(),
    isStealerLog: z.boolean(),
  })
  .meta({ id: 'BreachDetails' });
export type BreachDetails = z.infer<typeof BreachDetails>;

/** The whole feed at `catalog/breaches`: details keyed by breach id (the catalog name). */
export const CatalogDetails = z.record(RecordKey.min(1), BreachDetails);
export type CatalogDetails = z.infer<typeof CatalogDetails>;

/** The flags that make a breach hidden unless the person asks to see it (as Mozilla Monitor does). */
export const HIDDEN_BY_DEFAULT_FLAGS = ['isFabricated', 'isSpamList', 'isRetired'] as const;

export function isHiddenByDefault(details: Pick<BreachDetails, (typeof HIDDEN_BY_DEFAULT_FLAGS)[number]>): boolean {
  return HIDDEN_BY_DEFAULT_FLAGS.some((flag) => details[flag]);
}
