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
