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
 * Why `key` cannot be a key of an object built from input, or undefined: it is a name every
 * object inherits (`__proto__`, `constructor`, `toString`, `valueOf`, `hasOwnProperty`, …).
 * Assigning such a key to a plain object sets its prototype or, where Object.prototype is
 * frozen (the service process), throws; and code reading it from an object that lacks it finds
 * the inherited member. The service's body reader refuses such keys (server/http/body.ts).
 */
export function inheritedNameProblem(key: string): string | undefined {
  return key in Object.prototype ? `"${key}" is a name every object inherits and cannot be a key here` : undefined;
}

/**
 * A key of a record built from input: any string but the names every object inherits. zod
 * builds a record by assignment, so such a key would set a prototype or, where Object.prototype
 * is frozen, throw; refused here, it is a 400 naming the key instead.
 */
export const RecordKey = z.string().refine((key) => inheritedNameProblem(key) === undefined, { error: (issue) => inheritedNameProblem(String(issue.input))! });
