import { z } from 'zod';
import { RecordKey } from '../api/primitives.ts';

/**
 * The metadata filter engine: one implementation for the reference service's search endpoints
 * (new and legacy), the app's embedded search and the breaches list's advanced filter.
 *
 * New format (the app's filter language): an object of field → plain value (implicit `$eq`)
 * or `{ $eq | $ne | $gt | $gte | $lt | $lte | $in | $nin }`; fields AND together, and so do
 * several operators on one field (a range needs two: `{"$gte": a, "$lt": b}`). On array fields
 * `$eq` means "contains", `$ne` "does not contain", `$in` "contains any", `$nin` "contains none".
 * Strings compare case-insensitively (names such as data classes and domains have no case).
 */

/** What a field holds; `seconds` is an integer Unix time in seconds (the new format's timestamps). */
export type FieldKind = 'string' | 'number' | 'seconds' | 'boolean' | 'string[]';
export type FieldSchema = Readonly<Record<string, FieldKind>>;

export const COMPARISON_OPERATORS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'] as const;
export const SET_OPERATORS = ['$in', '$nin'] as const;
export const OPERATORS = [...COMPARISON_OPERATORS, ...SET_OPERATORS] as const;
export type Operator = (typeof OPERATORS)[number];
const RANGE_OPERATORS: readonly Operator[] = ['$gt', '$gte', '$lt', '$lte'];

export const FilterScalar = z.union([z.string(), z.number(), z.boolean()]);
export type FilterScalar = z.infer<typeof FilterScalar>;

/** The shape of a new-format filter; {@link parseMetadataFilter} checks it against a field schema. */
export const FieldCondition = z.union([
  FilterScalar,
  z.strictObject({
    $eq: FilterScalar.optional(),
    $ne: FilterScalar.optional(),
    $gt: z.number().optional(),
    $gte: z.number().optional(),
    $lt: z.number().optional(),
    $lte: z.number().optional(),
    $in: z.array(FilterScalar).optional(),
    $nin: z.array(FilterScalar).optional(),
  }),
]);
export type FieldCondition = z.infer<typeof FieldCondition>;
export const MetadataFilter = z.record(RecordKey, FieldCondition);
export type MetadataFilter = z.infer<typeof MetadataFilter>;

/** Most values one `$in`/`$nin` may list, so a filter stays a filter. */
export const MAX_SET_VALUES = 100;
/** Above this a "seconds" value is almost surely milliseconds. */
const MAX_SECONDS = 100_000_000_000;

export interface FilterIssue {
  /** JSON Pointer into the request body, e.g. `/ai_search_options/retrieval/filters/breachDate/$gt`. */
  pointer: string;
  message: string;
}

/** A filter the engine cannot run or translate; a 400 at the service, naming every what and where. */
export class FilterError extends Error {
  override readonly name = 'FilterError';
  readonly issues: FilterIssue[];
  constructor(issues: FilterIssue[]) {
    super(issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`).join('; '));
    this.issues = issues;
  }
}

export function pointerJoin(base: string, ...parts: (string | number)[]): string {
  return base + parts.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The kind of a filterable field, read as an own property only: a field named after something
 * every object inherits (`hasOwnProperty`, `constructor`, `__proto__`) is unknown, not a function.
 */
export function fieldKind(fields: FieldSchema, field: string): FieldKind | undefined {
  return Object.hasOwn(fields, field) ? fields[field] : undefined;
}

function describeKind(kind: FieldKind): string {
  switch (kind) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'seconds':
      return 'an integer number of seconds since 1970 (not milliseconds) or an ISO 8601 date or date-time ("2016-01-01", "2016-01-01T00:00:00Z")';
    case 'boolean':
      return 'true or false';
    case 'string[]':
      return 'a string (the field is a list; $eq means "contains")';
  }
}

function checkScalar(kind: FieldKind, value: unknown): string | undefined {
  switch (kind) {
    case 'string':
    case 'string[]':
      return typeof value === 'string' ? undefined : `must be ${describeKind(kind)}, got ${JSON.stringify(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `must be ${describeKind(kind)}, got ${JSON.stringify(value)}`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `must be ${describeKind(kind)}, got ${JSON.stringify(value)}`;
    case 'seconds':
      if (typeof value === 'string') return isoSeconds(value) === undefined ? `must be ${describeKind(kind)}, got ${JSON.stringify(value)}` : undefined;
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be ${describeKind(kind)}, got ${JSON.stringify(value)}`;
      if (Math.abs(value) >= MAX_SECONDS) return `${value} looks like milliseconds; timestamps are integer seconds (${Math.trunc(value / 1000)})`;
      return undefined;
  }
}

/**
 * An ISO 8601 date ("2016-01-01", midnight UTC) or date-time with a zone ("2016-01-01T00:00:00Z",
 * "2016-01-01T02:00:00.5+02:00") in seconds, possibly fractional; undefined for anything else.
 * Cloudflare's AI Search documents its `datetime` metadata type as these strings beside numbers.
 */
export function isoSeconds(text: string): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00'] = match;
  const at = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(at);
  // A calendar that does not exist ("2016-02-30", "25:00") is not a date.
  if (check.getUTCFullYear() !== Number(year) || check.getUTCMonth() !== Number(month) - 1 || check.getUTCDate() !== Number(day)) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  // The fraction is added apart: Date.parse reads at most milliseconds.
  const parsed = Date.parse(match[4] === undefined ? `${text}T00:00:00Z` : match[7] ? text.replace(match[7], '') : text);
  return Number.isNaN(parsed) ? undefined : parsed / 1000 + Number(match[7] ?? 0);
}

/**
 * A date string of a `seconds` field as the whole seconds it stands for under `operator`: a
 * fraction rounds so the same whole-second records match (`$gt`/`$lte` down, `$gte`/`$lt` up);
 * an equality between two seconds cannot be said, and is an issue.
 */
function wholeSeconds(operator: Operator, seconds: number): number | string {
  if (Number.isInteger(seconds)) return seconds;
  if (operator === '$gt' || operator === '$lte') return Math.floor(seconds);
  if (operator === '$gte' || operator === '$lt') return Math.ceil(seconds);
  return `${operator} needs a whole second; this date-time falls between two`;
}

/**
 * Checks a new-format filter against the fields that can be filtered, reporting every problem
 * with its pointer (`at` is where the filter sits in the request body). Returns the filter typed.
 */
export function parseMetadataFilter(input: unknown, fields: FieldSchema, at = ''): MetadataFilter {
  const issues: FilterIssue[] = [];
  if (!isPlainObject(input)) throw new FilterError([{ pointer: at, message: 'a filter must be an object of field → value or {"$operator": value}' }]);
  const known = Object.keys(fields).join(', ');
  for (const [field, condition] of Object.entries(input)) {
    const where = pointerJoin(at, field);
    const kind = fieldKind(fields, field);
    if (kind === undefined) {
      issues.push({
        pointer: where,
        message: field.startsWith('$') ? `"${field}" is not supported at the top level; fields AND together (filterable fields: ${known})` : `unknown field "${field}"; filterable fields: ${known}`,
      });
      continue;
    }
    if (!isPlainObject(condition)) {
      if (Array.isArray(condition)) issues.push({ pointer: where, message: `a list needs an operator: {"$in": [...]} matches any of the values` });
      else {
        const problem = checkScalar(kind, condition);
        if (problem) issues.push({ pointer: where, message: problem });
      }
      continue;
    }
    const operators = Object.keys(condition);
    if (operators.length === 0) issues.push({ pointer: where, message: `needs an operator: one of ${OPERATORS.join(', ')}` });
    for (const operator of operators) {
      const opWhere = pointerJoin(where, operator);
      if (!(OPERATORS as readonly string[]).includes(operator)) {
        issues.push({ pointer: opWhere, message: `unknown operator "${operator}"; use one of ${OPERATORS.join(', ')}` });
        continue;
      }
      const value = condition[operator];
      if (RANGE_OPERATORS.includes(operator as Operator) && kind !== 'number' && kind !== 'seconds') {
        issues.push({ pointer: opWhere, message: `${operator} compares numbers; "${field}" holds ${kind === 'string[]' ? 'a list of strings' : describeKind(kind)}` });
        continue;
      }
      if (operator === '$in' || operator === '$nin') {
        if (!Array.isArray(value) || value.length === 0) {
          issues.push({ pointer: opWhere, message: `${operator} takes a non-empty list of values` });
          continue;
        }
        if (value.length > MAX_SET_VALUES) issues.push({ pointer: opWhere, message: `${operator} takes at most ${MAX_SET_VALUES} values, got ${value.length}` });
        value.forEach((item, index) => {
          const problem = checkScalar(kind, item);
          if (problem) issues.push({ pointer: pointerJoin(opWhere, index), message: problem });
        });
        continue;
      }
      const problem = checkScalar(kind, value);
      if (problem) issues.push({ pointer: opWhere, message: problem });
    }
  }
  if (issues.length === 0) {
    const normalized = normalizeDates(input as MetadataFilter, fields, at, issues);
    if (issues.length === 0) return normalized;
  }
  throw new FilterError(issues);
}

/** The filter with every date string of a `seconds` field as integer seconds (what the engine compares). */
function normalizeDates(filter: MetadataFilter, fields: FieldSchema, at: string, issues: FilterIssue[]): MetadataFilter {
  let changed = false;
  const out: Record<string, unknown> = {};
  const convert = (operator: Operator, value: unknown, where: string): unknown => {
    if (typeof value !== 'string') return value;
    const result = wholeSeconds(operator, isoSeconds(value)!);
    if (typeof result === 'string') issues.push({ pointer: where, message: result });
    changed = true;
    return result;
  };
  for (const [field, condition] of Object.entries(filter)) {
    const where = pointerJoin(at, field);
    if (fieldKind(fields, field) !== 'seconds') {
      out[field] = condition;
      continue;
    }
    if (!isPlainObject(condition)) {
      out[field] = convert('$eq', condition, where);
      continue;
    }
    out[field] = Object.fromEntries(
      Object.entries(condition).map(([operator, value]) => [
        operator,
        Array.isArray(value)
          ? value.map((item, index) => convert(operator as Operator, item, pointerJoin(pointerJoin(where, operator), index)))
          : convert(operator as Operator, value, pointerJoin(where, operator)),
      ]),
    );
  }
  return changed ? (out as MetadataFilter) : filter;
}

export type FilterRecord = Readonly<Record<string, FilterScalar | readonly string[]>>;

const fold = (value: FilterScalar): FilterScalar => (typeof value === 'string' ? value.toLowerCase() : value);

function testScalar(actual: FilterScalar, operator: Operator, expected: FilterScalar | FilterScalar[]): boolean {
  const a = fold(actual);
  switch (operator) {
    case '$eq':
      return a === fold(expected as FilterScalar);
    case '$ne':
      return a !== fold(expected as FilterScalar);
    case '$gt':
      return (a as number) > (expected as number);
    case '$gte':
      return (a as number) >= (expected as number);
    case '$lt':
      return (a as number) < (expected as number);
    case '$lte':
      return (a as number) <= (expected as number);
    case '$in':
      return (expected as FilterScalar[]).some((value) => fold(value) === a);
    case '$nin':
      return !(expected as FilterScalar[]).some((value) => fold(value) === a);
  }
}

function testList(actual: readonly string[], operator: Operator, expected: FilterScalar | FilterScalar[]): boolean {
  const have = new Set(actual.map((value) => value.toLowerCase()));
  switch (operator) {
    case '$eq':
      return have.has(String(expected).toLowerCase());
    case '$ne':
      return !have.has(String(expected).toLowerCase());
    case '$in':
      return (expected as FilterScalar[]).some((value) => have.has(String(value).toLowerCase()));
    case '$nin':
      return !(expected as FilterScalar[]).some((value) => have.has(String(value).toLowerCase()));
    default:
      return false;
  }
}

/** A checked filter as one predicate over records (`parseMetadataFilter` first: this trusts its input). */
export function compileFilter(filter: MetadataFilter): (record: FilterRecord) => boolean {
  const tests: { field: string; operator: Operator; value: FilterScalar | FilterScalar[] }[] = [];
  for (const [field, condition] of Object.entries(filter)) {
    if (isPlainObject(condition)) {
      for (const [operator, value] of Object.entries(condition)) if (value !== undefined) tests.push({ field, operator: operator as Operator, value: value as FilterScalar | FilterScalar[] });
    } else tests.push({ field, operator: '$eq', value: condition });
  }
  return (record) =>
    tests.every(({ field, operator, value }) => {
      const actual = Object.hasOwn(record, field) ? record[field] : undefined;
      if (actual === undefined) return operator === '$ne' || operator === '$nin';
      return Array.isArray(actual) ? testList(actual, operator, value) : testScalar(actual as FilterScalar, operator, value);
    });
}

/** True when the filter constrains nothing (no field). */
export function isEmptyFilter(filter: MetadataFilter | undefined): boolean {
  return filter === undefined || Object.keys(filter).length === 0;
}
