// One formatter for every count: `toLocaleString('en')` sets one up on each call, which showed
// as milliseconds of a first render that writes a few dozen counts.
const countFormat = new Intl.NumberFormat('en');

/** A count as the UI writes it (English digit grouping: 12,345). */
export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** English plurals are enough for this UI; one function keeps the wording consistent. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

// Dates follow the person's locale (undefined = the system's); the words around them are English.
const dateFormat = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A calendar date (`YYYY-MM-DD`), shown without shifting it into the local zone. */
export function formatDate(isoDate: string): string {
  const ms = Date.parse(isoDate.length === 10 ? `${isoDate}T00:00:00Z` : isoDate);
  return Number.isNaN(ms) ? isoDate : dateFormat.format(ms);
}

export function formatDateTime(isoDateTime: string): string {
  const ms = Date.parse(isoDateTime);
  return Number.isNaN(ms) ? isoDateTime : dateTimeFormat.format(ms);
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
// Sync times have minute precision, so seconds would be noise.
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Infinity],
];

export function formatRelative(isoDateTime: string, now = Date.now()): string {
  const ms = Date.parse(isoDateTime);
  if (Number.isNaN(ms)) return isoDateTime;
  let value = (ms - now) / 60_000;
  if (Math.abs(value) < 1) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return formatDateTime(isoDateTime);
}
