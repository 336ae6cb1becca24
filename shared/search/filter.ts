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
      return 'an integer number of seconds since 1970 (not milliseconds)';
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
      if (typeof value !== 'number' || !Number.isInteger(value)) return `must be ${describeKind(kind)}, got ${JSON.stringify(value)}`;
      if (Math.abs(value) >= MAX_SECONDS) return `${value} looks like milliseconds; timestamps are integer seconds (${Math.trunc(value / 1000)})`;
      return undefined;
  }
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
  if (issues.length > 0) throw new FilterError(issues);
  return input as MetadataFilter;
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
