import { z } from 'zod';
import { Email, IsoDateTime } from './primitives.ts';

/** Where a service's catalog came from: its generated demo catalog, Have I Been Pwned's `GET breaches`, or a catalog file. */
export const CatalogOrigin = z.enum(['demo', 'hibp', 'file']).meta({ id: 'CatalogOrigin' });
export type CatalogOrigin = z.infer<typeof CatalogOrigin>;

/**
 * What one change of the service's catalog or breach data did to one monitored address. Breaches
 * that left the catalog stay in the address's list (marked `removedFromCatalogAt`), with their
 * resolutions; invented (demo) exposures are removed when the service starts on real data, and
 * their resolutions with them, because they were never true.
 */
export const CatalogChange = z
  .object({
    id: z.int().min(1).meta({ description: 'Increases with every change; a client remembers the last one it showed' }),
    at: IsoDateTime.meta({ description: 'When the service made the change' }),
    email: Email.meta({ description: 'The monitored address the change is about' }),
    from: CatalogOrigin.nullable().meta({ description: 'The catalog before the change; null when the service did not record it (older data)' }),
    to: CatalogOrigin.meta({ description: 'The catalog after the change' }),
    removedFromCatalog: z.array(z.string().min(1)).meta({ description: 'Breaches of this address that left the catalog: still listed, with `removedFromCatalogAt`, and their resolutions kept' }),
    inventedRemoved: z.array(z.string().min(1)).meta({ description: 'Invented (demo) exposures of this address, removed because the service now has real breach data (or none); never real' }),
    resolutionsKept: z.int().min(0).meta({ description: 'Resolved data classes of `removedFromCatalog` breaches, kept' }),
    resolutionsRemoved: z.int().min(0).meta({ description: 'Resolved data classes of `inventedRemoved` exposures, removed with them' }),
  })
  .meta({ id: 'CatalogChange' });
export type CatalogChange = z.infer<typeof CatalogChange>;

/** Body of `GET /user/catalog-changes`: the caller's addresses' changes, oldest first. */
export const CatalogChanges = z.object({ changes: z.array(CatalogChange) }).meta({ id: 'CatalogChanges' });
export type CatalogChanges = z.infer<typeof CatalogChanges>;
