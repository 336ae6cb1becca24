import { z } from 'zod';
import type { ProblemFieldError } from './problem.ts';

/** Query parameters of `GET /user/breaches`, after parsing the query string. */
export const BreachQuery = z
  .object({
    domain: z.string().min(1, 'must not be empty').optional(),
    dataClasses: z.array(z.string().min(1, 'must not be empty')).optional(),
    unresolvedDataClasses: z.array(z.string().min(1, 'must not be empty')).optional(),
    includeSensitive: z.boolean().default(false),
  })
  .meta({ id: 'BreachQuery' });
export type BreachQuery = z.infer<typeof BreachQuery>;
export type BreachQueryInput = z.input<typeof BreachQuery>;

const ARRAY_PARAMS = new Set(['dataClasses', 'unresolvedDataClasses']);
const SINGLE_PARAMS = new Set(['domain', 'includeSensitive']);

export type QueryParseResult = { ok: true; query: BreachQuery } | { ok: false; errors: ProblemFieldError[] };

/**
 * Parses a `GET /user/breaches` query string with the contract's rules: arrays are repeated
 * parameters (form style, exploded), `includeSensitive` is `true` or `false`, single-valued
 * parameters may appear once. Unknown parameters are ignored, as HTTP APIs customarily do.
 */
export function parseBreachQuery(params: URLSearchParams): QueryParseResult {
  const errors: ProblemFieldError[] = [];
  const raw: Record<string, unknown> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    if (ARRAY_PARAMS.has(name)) raw[name] = values;
    else if (SINGLE_PARAMS.has(name)) {
      if (values.length > 1) {
        errors.push({ pointer: `/${name}`, parameter: name, message: 'must be given at most once' });
        continue;
      }
      raw[name] = values[0];
    }
  }
  if (raw.includeSensitive !== undefined) {
    const value = raw.includeSensitive;
    if (value === 'true') raw.includeSensitive = true;
    else if (value === 'false') raw.includeSensitive = false;
    else errors.push({ pointer: '/includeSensitive', parameter: 'includeSensitive', message: 'must be "true" or "false"' });
  }
  if (errors.length > 0) return { ok: false, errors };
  const parsed = BreachQuery.safeParse(raw);
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return { pointer: '/' + name, parameter: name, message: issue.message };
      }),
    };
  return { ok: true, query: parsed.data };
}

/** The inverse of {@link parseBreachQuery}, for clients. */
export function toBreachSearchParams(query: BreachQueryInput): URLSearchParams {
  const params = new URLSearchParams();
  if (query.domain !== undefined) params.set('domain', query.domain);
  for (const value of query.dataClasses ?? []) params.append('dataClasses', value);
  for (const value of query.unresolvedDataClasses ?? []) params.append('unresolvedDataClasses', value);
  if (query.includeSensitive !== undefined) params.set('includeSensitive', String(query.includeSensitive));
  return params;
}
