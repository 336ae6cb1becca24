import { z } from 'zod';

/** `YYYY-MM-DD`, a calendar date (breach dates are approximate guides). */
export const IsoDate = z.iso.date();

/**
 * RFC 3339 date-time. The service emits minute precision (`…T12:34:00Z`); readers accept
 * seconds, fractions and offsets so a real server that decided differently still parses.
 */
export const IsoDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/, 'must be an ISO 8601 date-time such as 2024-05-01T12:30:00Z')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a real date and time')
  .meta({ format: 'date-time' });

/** A syntactically valid email address. */
export const Email = z.email({ error: 'must be a valid email address' }).max(254, 'must be at most 254 characters (RFC 5321)');

/**
 * Filters and snapshots ask for the key of the same few hundred names millions of times; the
 * Unicode-aware rule costs about ten times a lookup.
 */
const KEY_CACHE_SIZE = 4096;
const keyCache = new Map<string, string>();

/**
 * The identity of a data class: its slug. A display name (`Email addresses`), any casing of
 * it (`EMAIL ADDRESSES`) and its slug (`email-addresses`, the spelling Mozilla Monitor uses)
 * all name the same class. The rule: lower case, every run of characters that are neither
 * letters nor digits becomes `-`, no `-` at either end. A name of punctuation only still
 * needs an identity of its own: `x` and its UTF-8 bytes in hex. Blank names have none (`''`).
 * Idempotent, so a key is its own key. Each breach keeps its own spelling; this is for matching.
 */
export function dataClassKey(name: string): string {
  let key = keyCache.get(name);
  if (key === undefined) {
    key = slugOf(name);
    // Names repeat endlessly (a catalog has a few hundred); the bound keeps odd input from growing it.
    if (keyCache.size >= KEY_CACHE_SIZE) keyCache.clear();
    keyCache.set(name, key);
  }
  return key;
}

function slugOf(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') return '';
  const slug = trimmed
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  if (slug !== '') return slug;
  return 'x' + Array.from(new TextEncoder().encode(trimmed), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Emails are matched case-insensitively (practical mail systems ignore local-part case). */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Truncates any RFC 3339 date-time to minute precision in UTC: `YYYY-MM-DDTHH:MM:00Z`.
 * Throws RangeError for a string that is not a date-time.
 */
export function toMinutePrecision(dateTime: string): string {
  const ms = Date.parse(dateTime);
  if (Number.isNaN(ms)) throw new RangeError(`not a date-time: ${dateTime}`);
  return new Date(ms - (ms % 60_000)).toISOString().slice(0, 16) + ':00Z';
}

/**
 * A key of a record built from input: any string but the names every object inherits
 * (`__proto__`, `constructor`, `toString`, `hasOwnProperty`, …). zod builds a record by
 * assignment, so such a key would set a prototype or, where Object.prototype is frozen (the
 * service process), throw; refused here, it is a 400 naming the key instead.
 */
export const RecordKey = z.string().refine((key) => !(key in Object.prototype), { error: (issue) => `"${String(issue.input)}" is a name every object inherits and cannot be a key here` });

/**
 * The JSON Pointer of the first key, at any depth, that every object inherits (`valueOf`,
 * `constructor`, `__proto__`…), or undefined. For bodies parsed by schemas that keep unknown keys
 * (zod copies them by assignment, which such a key poisons, or trips over once the service has
 * frozen Object.prototype).
 */
export function firstInheritedKey(value: unknown, at = ''): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const pointer = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key in Object.prototype) return pointer;
    const inner = firstInheritedKey(child, pointer);
    if (inner !== undefined) return inner;
  }
  return undefined;
}
