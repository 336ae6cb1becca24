import type { FieldSchema, MetadataFilter } from './filter.ts';

/**
 * A filter as a person reads it: the same object, with every `seconds` field's value (Unix
 * seconds on the wire) as a UTC date, `YYYY-MM-DD` when it falls on midnight and a full ISO time
 * otherwise. For showing only: the filter sent keeps its seconds.
 */
export function readableFilter(filter: MetadataFilter, fields: FieldSchema): Record<string, unknown> {
  const readable: Record<string, unknown> = {};
  for (const [field, condition] of Object.entries(filter)) {
    if (fields[field] !== 'seconds') {
      readable[field] = condition;
      continue;
    }
    if (typeof condition !== 'object' || condition === null) readable[field] = asDate(condition);
    else readable[field] = Object.fromEntries(Object.entries(condition).map(([operator, value]) => [operator, Array.isArray(value) ? value.map(asDate) : asDate(value)]));
  }
  return readable;
}

function asDate(value: unknown): unknown {
  if (typeof value !== 'number' || !Number.isInteger(value)) return value;
  const date = new Date(value * 1000);
  if (Number.isNaN(date.getTime())) return value;
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z');
}
