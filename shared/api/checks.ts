import { z } from 'zod';
import { Email, IsoDateTime } from './primitives.ts';

/**
 * Where a service's exposures come from. `hibp`: looked up with Have I Been Pwned; `demo`:
 * invented by a service started with `--demo`/`--dev` (never real); `none`: the service has no
 * breach-data source, so it knows nothing about any address (an empty list means "unknown",
 * never "clean").
 */
export const BreachDataSource = z.enum(['hibp', 'demo', 'none']).meta({ id: 'BreachDataSource' });
export type BreachDataSource = z.infer<typeof BreachDataSource>;

/**
 * Response headers on every answer that carries exposures (`GET /user/breaches`, the newer
 * contract's breach answers, `GET /user/checks`). Lower-case, as Node and fetch read them.
 */
export const BreachDataHeaders = {
  /** `hibp` | `demo` | `none` ({@link BreachDataSource}). */
  source: 'breach-data',
  /** How many of the caller's monitored addresses have not been checked yet (0 when all are known). */
  pending: 'breach-checks-pending',
  /**
   * The version of the caller's `GET /user/checks` answer, on the breach list's answers (200 and
   * 304) and on the checks' own: an opaque token that moves exactly when what the answer says
   * changes, its estimates aside (`nextCheckAt`, the queue's `waiting` and `nextCheckAt` move with
   * time and other people's lookups, and do not count). A client that kept the answer of this
   * version need not ask again. Absent from services that do not say (ask as before).
   */
  checksVersion: 'breach-checks-version',
  /** The same for `GET /user/catalog-changes`, on the breach list's answers and on its own. */
  catalogChangesVersion: 'breach-catalog-changes-version',
  /**
   * The version of the service's own details feed (`<origin>/rtdb`, `catalog/breaches`), on the
   * breach list's answers (200 and 304): an opaque token that moves when the feed's content does
   * (a digest of it). A client whose copy of that feed was read at this version need not read it
   * again. It says nothing about another feed a person configured. Absent from services that do
   * not say (read the feed as before).
   */
  catalogVersion: 'breach-catalog-version',
} as const;

/**
 * The `breach-catalog-changes-version` of an empty list of catalog changes, the same on every
 * service that sends it: a client that reads it knows the answer of `GET /user/catalog-changes`
 * is `{"changes": []}` without asking (a first sync of an account nothing happened to is then the
 * list and its checks). Every other version is an opaque token, never this one.
 */
export const NO_CATALOG_CHANGES_VERSION = 'none';

/** What a version header holds: an opaque token of URL-safe characters (a client reads anything else as absent). */
export const FOLLOW_UP_VERSION_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** The check state of one monitored address. */
export const AddressCheckState = z.enum(['pending', 'checked', 'failed']).meta({ id: 'AddressCheckState' });
export type AddressCheckState = z.infer<typeof AddressCheckState>;

export const AddressCheck = z
  .object({
    email: Email,
    state: AddressCheckState.meta({ description: '`pending`: not checked yet (unknown, not clean); `checked`: `checkedAt` says when; `failed`: the last try failed, `problem` says why' }),
    checkedAt: IsoDateTime.nullable().meta({ description: 'When the source last answered for this address; null until then' }),
    nextCheckAt: IsoDateTime.nullable().meta({ description: 'When the queue expects to look it up next; null when no check is scheduled' }),
    breachCount: z.int().min(0).nullable().meta({ description: 'Breaches the source reported at the last check; null until checked' }),
    viaDomainSearch: z.boolean().meta({ description: 'Checked through a domain search of its whole domain rather than one by one' }),
    problem: z.string().nullable().optional().meta({ description: 'Why the last try failed (state `failed`), a sentence; null otherwise. Absent from services that do not say' }),
  })
  .meta({ id: 'AddressCheck' });
export type AddressCheck = z.infer<typeof AddressCheck>;

/**
 * A website domain of a stealer log: a DNS name, lower case (RFC 1035 §2.3.4 and RFC 1123 §2.1:
 * at most 253 characters, labels of 1–63 letters, digits and hyphens, not starting or ending
 * with a hyphen). HIBP documents the answer as "an array of … domains" (the website domains
 * "that the email address has been seen on", https://haveibeenpwned.com/API/v3#StealerLogsForEmail).
 */
export const StealerLogDomain = z
  .string()
  .max(253)
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/, 'must be a website domain (letters, digits, hyphens and dots)');
/**
 * Website domains kept per address. HIBP names no limit; a person's stealer logs name tens of
 * sites, and what is shown must stay readable and bounded.
 */
export const MAX_STEALER_DOMAINS = 1000;

/** Websites whose credentials an infostealer captured for one address (HIBP stealer logs). */
export const StealerLogEntry = z
  .object({
    email: Email,
    domains: z.array(StealerLogDomain).max(MAX_STEALER_DOMAINS).meta({ description: 'Website domains, sorted' }),
    checkedAt: IsoDateTime,
  })
  .meta({ id: 'StealerLogEntry' });
export type StealerLogEntry = z.infer<typeof StealerLogEntry>;

/**
 * `wrong-address`: the configured base URL does not answer like Have I Been Pwned's API v3
 * (`subscription/status` answered 404, or not with the documented JSON).
 */
export const SourceProblemCode = z.enum(['no-source', 'key-refused', 'source-unreachable', 'rate-limited', 'wrong-address']).meta({ id: 'SourceProblemCode' });
export type SourceProblemCode = z.infer<typeof SourceProblemCode>;

/** Body of `GET /user/checks`: what the service knows about the caller's addresses, and what it does not yet. */
export const UserChecks = z
  .object({
    source: BreachDataSource,
    attribution: z.string().nullable().meta({
      description:
        'Whom to credit where this data is shown ("Have I Been Pwned"), the catalog included: demo exposures over a Have I Been Pwned catalog file credit it too; null for none and for the generated demo catalog',
    }),
    addresses: z.array(AddressCheck),
    queue: z
      .object({
        requestsPerMinute: z.int().min(1).nullable().meta({ description: "The key's rate limit (HIBP `subscription/status` Rpm); null without a key" }),
        waiting: z.int().min(0).meta({ description: "Lookups queued across the service, the caller's included" }),
        nextCheckAt: IsoDateTime.nullable().meta({ description: "When the next of the caller's pending checks is expected" }),
      })
      .meta({ description: "The lookup queue's state" }),
    stealerLogs: z
      .object({
        available: z.boolean().meta({ description: 'The subscription includes stealer logs' }),
        pending: z.int().min(0).optional().meta({
          description:
            "The caller's addresses whose stealer logs have not been searched yet (they are searched after every address's breaches, so they can still be to come when no address is pending); 0 without stealer logs. Absent from services that do not say",
        }),
        entries: z.array(StealerLogEntry),
      })
      .meta({ description: "HIBP stealer logs for the caller's addresses; `available: false` when the key does not include them" }),
    problem: z
      .object({ code: SourceProblemCode, detail: z.string().meta({ description: 'A sentence a person can act on' }) })
      .nullable()
      .meta({ description: 'Why the service cannot check addresses right now; null when it can' }),
  })
  .meta({ id: 'UserChecks' });
export type UserChecks = z.infer<typeof UserChecks>;
