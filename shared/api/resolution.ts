import { z } from 'zod';
import { Limits } from './breach.ts';
import { Email } from './primitives.ts';

/** One item of `POST /user/breaches/resolutions`; no additional properties. */
export const ResolutionItem = z
  .strictObject({
    breachId: z.string().min(1, 'must not be empty'),
    dataClasses: z
      .array(z.string().min(1, 'must not be empty'))
      .meta({ description: 'Data classes of the breach, each by display name, any casing of it, or slug (`email-addresses`)' })
      .min(1, 'must name at least one data class')
      .max(Limits.maxDataClassesPerItem, `at most ${Limits.maxDataClassesPerItem} data classes per item`),
    resolved: z.boolean(),
    emails: z
      .array(Email)
      .min(1, 'must name at least one email, or be omitted')
      .max(Limits.maxEmailsPerItem, `at most ${Limits.maxEmailsPerItem} emails per item`)
      .optional()
      .meta({ description: 'When omitted, the item applies to every monitored email affected by the breach' }),
  })
  .meta({ id: 'ResolutionItem' });
export type ResolutionItem = z.infer<typeof ResolutionItem>;

/** The whole request body: each breach id at most once. */
export const ResolutionRequest = z
  .array(ResolutionItem)
  .max(Limits.maxItems, `at most ${Limits.maxItems} items per request`)
  .superRefine((items, ctx) => {
    const seen = new Map<string, number>();
    items.forEach((item, index) => {
      const first = seen.get(item.breachId);
      if (first === undefined) seen.set(item.breachId, index);
      else
        ctx.addIssue({
          code: 'custom',
          path: [index, 'breachId'],
          message: `duplicate breachId "${item.breachId}" (also item ${first}); each breach may appear once per request`,
        });
    });
  })
  .meta({ id: 'ResolutionRequest' });
export type ResolutionRequest = z.infer<typeof ResolutionRequest>;

/**
 * A toggle as the person makes it, in the app (the resolutions channel and the outbox): set
 * these data classes of this breach to resolved or unresolved for these emails. Omitted
 * `emails` means every monitored email the breach affects (as the local store knows them);
 * omitted `dataClasses` means all of the breach's classes.
 */
export const ResolveInput = z.strictObject({
  breachId: z.string().min(1),
  emails: z.array(Email).min(1).optional(),
  dataClasses: z.array(z.string().trim().min(1)).min(1).optional(),
  resolved: z.boolean(),
});
export type ResolveInput = z.infer<typeof ResolveInput>;
