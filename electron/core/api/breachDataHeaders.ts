import { BreachDataHeaders, BreachDataSource, FOLLOW_UP_VERSION_PATTERN } from '../../../shared/api/index.ts';
import type { BreachDataHeaderValues } from '../db/breachDataQueries.ts';

/**
 * The `breach-data`, `breach-checks-pending` and follow-up version headers of one answer (shared/api/checks.ts).
 * Absent or unreadable values are undefined, never guessed: an older or another party's service
 * sends neither, and the app then calls its data neither demo nor checked. The source is
 * matched without regard to case or surrounding space (HTTP field values may carry both); the
 * count must be a plain non-negative decimal integer.
 */
export function readBreachDataHeaders(headers: Pick<Headers, 'get'>): BreachDataHeaderValues {
  const rawSource = headers.get(BreachDataHeaders.source);
  const source = rawSource === null ? undefined : BreachDataSource.safeParse(rawSource.trim().toLowerCase());
  const rawPending = headers.get(BreachDataHeaders.pending)?.trim();
  const pending = rawPending !== undefined && /^\d{1,9}$/.test(rawPending) ? Number(rawPending) : undefined;
  return {
    source: source?.success ? source.data : undefined,
    pending,
    checksVersion: versionOf(headers.get(BreachDataHeaders.checksVersion)),
    catalogChangesVersion: versionOf(headers.get(BreachDataHeaders.catalogChangesVersion)),
    catalogVersion: versionOf(headers.get(BreachDataHeaders.catalogVersion)),
  };
}

/** A follow-up version header (an opaque token, compared as is); anything else is absent: the follow-up is then asked as before. */
function versionOf(raw: string | null): string | undefined {
  const value = raw?.trim();
  return value !== undefined && FOLLOW_UP_VERSION_PATTERN.test(value) ? value : undefined;
}
