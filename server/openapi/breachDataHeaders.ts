import { BreachDataHeaders } from '../../shared/api/index.ts';

/** The headers of every answer carrying exposures (shared/api/checks.ts), as OpenAPI response headers. */
export const BREACH_DATA_HEADERS = {
  [BreachDataHeaders.source]: {
    description:
      'Where the exposures come from: `hibp` (Have I Been Pwned; credit it where shown), `demo` (invented by a service started with `--demo`/`--dev`; never real, always label it), `none` (no source: nothing is known about any address)',
    schema: { $ref: '#/components/schemas/BreachDataSource' },
  },
  [BreachDataHeaders.pending]: {
    description: "How many of the caller's monitored addresses have not been checked yet (absent from the answer: unknown, not clean); 0 when all are known",
    schema: { type: 'integer', minimum: 0 },
  },
} as const;

const VERSION_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,128}$' } as const;

/** The version of the caller's `GET /user/checks` answer (shared/api/checks.ts). */
export const CHECKS_VERSION_HEADER = {
  [BreachDataHeaders.checksVersion]: {
    description:
      "The version of the caller's `GET /user/checks` answer: an opaque token that moves exactly when what that answer says changes, its estimates aside (`nextCheckAt`, the queue's `waiting` and `nextCheckAt`). A client that stored the answer of this version need not ask for it again; one whose stored checks still wait on a lookup asks anyway, for the estimates. Absent from services that do not say: ask as before",
    schema: VERSION_SCHEMA,
  },
} as const;

/** The version of the caller's `GET /user/catalog-changes` answer (shared/api/checks.ts). */
export const CATALOG_CHANGES_VERSION_HEADER = {
  [BreachDataHeaders.catalogChangesVersion]: {
    description:
      'The version of the caller\'s `GET /user/catalog-changes` answer: an opaque token that moves exactly when that answer changes. A client that recorded the answer of this version need not ask for it again. `none` (and only `none`) says the answer is `{"changes": []}`: a client need not ask for it at all. Absent from services that do not say: ask as before',
    schema: VERSION_SCHEMA,
  },
} as const;

/** The version of the service's own details feed (shared/api/checks.ts). */
export const CATALOG_VERSION_HEADER = {
  [BreachDataHeaders.catalogVersion]: {
    description:
      "The version of this service's details feed (`/rtdb`, location `catalog/breaches`): an opaque token (a digest of the feed's content) that moves when the feed does. A client whose copy of that feed was read at this version need not read it again; it says nothing about a feed elsewhere. Absent from services that do not say: read the feed as before",
    schema: VERSION_SCHEMA,
  },
} as const;
