import { z } from 'zod';
import { fieldKind, FilterError, pointerJoin, type FieldSchema, type FilterIssue, type FilterScalar, type MetadataFilter, type Operator } from './filter.ts';

/**
 * The legacy metadata filter format of the `legacy-rag/rags` endpoints, and its translation to
 * the new format. A node is `{type, key, value}` with eq/ne/gt/gte/lt/lte, `{type: "and",
 * filters}` or `{type: "or", filters}` where an `or` may only list `eq` on one key (it becomes
 * `$in`). Legacy timestamps are milliseconds (usually as strings); the new format's are integer
 * seconds, so they are converted exactly: a bound that falls between two seconds is rounded the
 * way that keeps the same matches, and an equality that no whole second can meet is refused.
 */
export const LEGACY_COMPARISONS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
export type LegacyComparisonType = (typeof LEGACY_COMPARISONS)[number];

export const LegacyComparison = z.object({ type: z.enum(LEGACY_COMPARISONS), key: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) });
export type LegacyComparison = z.infer<typeof LegacyComparison>;
export type LegacyCompound = { type: 'and' | 'or'; filters: LegacyFilter[] };
export type LegacyFilter = LegacyComparison | LegacyCompound;
export const LegacyFilter: z.ZodType<LegacyFilter> = z.lazy(() => z.union([LegacyComparison, z.object({ type: z.enum(['and', 'or']), filters: z.array(LegacyFilter) })]));

const OPERATOR_OF: Record<LegacyComparisonType, Operator> = { eq: '$eq', ne: '$ne', gt: '$gt', gte: '$gte', lt: '$lt', lte: '$lte' };
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

type Conditions = Map<string, Map<Operator, FilterScalar | FilterScalar[]>>;

/**
 * Translates a legacy filter (`at` is its place in the request body) into the new format over
 * `fields`; throws {@link FilterError} naming what cannot be translated and where.
 */
export function translateLegacyFilter(input: unknown, fields: FieldSchema, at = ''): MetadataFilter {
  const issues: FilterIssue[] = [];
  const conditions: Conditions = new Map();
  collect(input, at, fields, conditions, issues);
  if (issues.length > 0) throw new FilterError(issues);
  // Keys come from the request: a prototype-free object keeps `__proto__` an ordinary (unknown) field.
  const filter = Object.create(null) as MetadataFilter;
  for (const [field, operators] of conditions) filter[field] = Object.fromEntries(operators);
  return filter;
}

function add(conditions: Conditions, field: string, operator: Operator, value: FilterScalar | FilterScalar[], where: string, issues: FilterIssue[]): void {
  const operators = conditions.get(field) ?? new Map<Operator, FilterScalar | FilterScalar[]>();
  if (operators.has(operator)) {
    issues.push({ pointer: where, message: `"${field}" already has ${operator} in this "and"; the new format can state each operator once per field, so this filter cannot be translated` });
    return;
  }
  operators.set(operator, value);
  conditions.set(field, operators);
}

function collect(node: unknown, where: string, fields: FieldSchema, conditions: Conditions, issues: FilterIssue[]): void {
  if (!isObject(node)) {
    issues.push({ pointer: where, message: 'a legacy filter is an object {type, key, value} or {type: "and"|"or", filters: [...]}' });
    return;
  }
  if (node.type === 'and' || node.type === 'or') {
    if (!Array.isArray(node.filters) || node.filters.length === 0) {
      issues.push({ pointer: pointerJoin(where, 'filters'), message: `"${node.type}" needs a non-empty list of filters` });
      return;
    }
    if (node.type === 'and') {
      node.filters.forEach((child, index) => collect(child, pointerJoin(where, 'filters', index), fields, conditions, issues));
      return;
    }
    collectOr(node.filters, where, fields, conditions, issues);
    return;
  }
  const parsed = LegacyComparison.safeParse(node);
  if (!parsed.success) {
    const type = node.type;
    const message =
      typeof type === 'string' && !(LEGACY_COMPARISONS as readonly string[]).includes(type)
        ? `unknown filter type "${type}"; legacy filters use eq, ne, gt, gte, lt, lte, and, or`
        : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'filter'}: ${issue.message}`).join('; ');
    issues.push({ pointer: where, message });
    return;
  }
  const { type, key, value } = parsed.data;
  const converted = convertValue(key, type, value, fields, where, issues);
  if (converted !== undefined) add(conditions, key, OPERATOR_OF[type], converted, where, issues);
}

function collectOr(children: unknown[], where: string, fields: FieldSchema, conditions: Conditions, issues: FilterIssue[]): void {
  const values: FilterScalar[] = [];
  let key: string | undefined;
  children.forEach((child, index) => {
    const childWhere = pointerJoin(where, 'filters', index);
    const parsed = LegacyComparison.safeParse(child);
    if (!parsed.success || parsed.data.type !== 'eq') {
      issues.push({ pointer: childWhere, message: 'an "or" translates only as a list of "eq" filters on one key (it becomes $in); this one is not an "eq"' });
      return;
    }
    if (key !== undefined && parsed.data.key !== key) {
      issues.push({ pointer: pointerJoin(childWhere, 'key'), message: `an "or" translates only when every "eq" names the same key; "${parsed.data.key}" differs from "${key}"` });
      return;
    }
    key = parsed.data.key;
    const value = convertValue(parsed.data.key, 'eq', parsed.data.value, fields, childWhere, issues);
    if (value !== undefined) values.push(value);
  });
  if (key !== undefined && values.length === children.length) add(conditions, key, '$in', values, where, issues);
}

/** A legacy value in the unit and type of the new format's field, or undefined with an issue recorded. */
function convertValue(key: string, type: LegacyComparisonType, value: FilterScalar, fields: FieldSchema, where: string, issues: FilterIssue[]): FilterScalar | undefined {
  const kind = fieldKind(fields, key);
  const at = pointerJoin(where, 'value');
  if (kind === undefined) {
    issues.push({ pointer: pointerJoin(where, 'key'), message: `unknown field "${key}"; filterable fields: ${Object.keys(fields).join(', ')}` });
    return undefined;
  }
  const ordered = type === 'gt' || type === 'gte' || type === 'lt' || type === 'lte';
  if (ordered && kind !== 'number' && kind !== 'seconds') {
    issues.push({ pointer: pointerJoin(where, 'type'), message: `"${type}" compares numbers; "${key}" is not a number field` });
    return undefined;
  }
  switch (kind) {
    case 'string':
    case 'string[]':
      if (typeof value === 'string') return value;
      issues.push({ pointer: at, message: `"${key}" holds strings; got ${JSON.stringify(value)}` });
      return undefined;
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      issues.push({ pointer: at, message: `"${key}" holds true or false; got ${JSON.stringify(value)}` });
      return undefined;
    case 'number': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (Number.isFinite(number)) return number;
      issues.push({ pointer: at, message: `"${key}" holds numbers; got ${JSON.stringify(value)}` });
      return undefined;
    }
    case 'seconds': {
      const ms = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,16}$/.test(value.trim()) ? Number(value.trim()) : NaN;
      if (!Number.isSafeInteger(ms)) {
        issues.push({ pointer: at, message: `"${key}" is a legacy timestamp: a whole number of milliseconds such as "1672531200000"; got ${JSON.stringify(value)}` });
        return undefined;
      }
      return millisecondsToSeconds(ms, type, key, at, issues);
    }
  }
}

/**
 * Integer seconds that keep the legacy comparison's matches over whole-second timestamps:
 * `t*1000 > ms` ⇔ `t > floor(ms/1000)`, `>=` ⇔ `>= ceil`, `<` ⇔ `< ceil`, `<=` ⇔ `<= floor`.
 */
function millisecondsToSeconds(ms: number, type: LegacyComparisonType, key: string, at: string, issues: FilterIssue[]): number | undefined {
  switch (type) {
    case 'gt':
    case 'lte':
      return Math.floor(ms / 1000);
    case 'gte':
    case 'lt':
      return Math.ceil(ms / 1000);
    case 'eq':
    case 'ne':
      if (ms % 1000 === 0) return ms / 1000;
      issues.push({ pointer: at, message: `${ms} ms is not a whole second; "${key}" is integer seconds in the new format, so "${type}" on it cannot be translated` });
      return undefined;
  }
}

/**
 * The other way, for the app talking to a legacy instance: a new-format filter as a legacy one.
 * `$in` becomes an `or` of `eq`, `$nin` an `and` of `ne` (on a list, `ne` is "does not contain",
 * so "none of" holds), timestamps become millisecond strings. `fields` must be the schema the
 * filter was checked against (`parseMetadataFilter`).
 */
export function toLegacyFilter(filter: MetadataFilter, fields: FieldSchema): LegacyFilter | undefined {
  const nodes: LegacyFilter[] = [];
  const legacyValue = (field: string, value: FilterScalar): FilterScalar => (fieldKind(fields, field) === 'seconds' ? String((value as number) * 1000) : value);
  const LEGACY_OF: Partial<Record<Operator, LegacyComparisonType>> = { $eq: 'eq', $ne: 'ne', $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' };
  for (const [field, condition] of Object.entries(filter)) {
    const operators: [Operator, unknown][] = isObject(condition) ? (Object.entries(condition) as [Operator, unknown][]).filter(([, v]) => v !== undefined) : [['$eq', condition]];
    for (const [operator, value] of operators) {
      if (operator === '$in' || operator === '$nin') {
        const values = value as FilterScalar[];
        const type = operator === '$in' ? 'eq' : 'ne';
        const comparisons: LegacyFilter[] = values.map((v) => ({ type, key: field, value: legacyValue(field, v) }));
        nodes.push(comparisons.length === 1 ? comparisons[0]! : { type: operator === '$in' ? 'or' : 'and', filters: comparisons });
      } else nodes.push({ type: LEGACY_OF[operator]!, key: field, value: legacyValue(field, value as FilterScalar) });
    }
  }
  if (nodes.length === 0) return undefined;
  return nodes.length === 1 ? nodes[0] : { type: 'and', filters: nodes };
}
