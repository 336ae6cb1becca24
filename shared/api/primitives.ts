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

/** Data class names are matched case-insensitively; each breach keeps its own spelling. */
export function dataClassKey(name: string): string {
  return name.trim().toLowerCase();
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
