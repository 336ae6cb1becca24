import type { Logger } from '../log.ts';

/**
 * The longest wait the service takes from one `retry-after`: a day. HIBP documents its 429 as
 * asking for a few seconds ("retry-after … how many seconds to wait before making another
 * request", https://haveibeenpwned.com/API/v3#RateLimiting); a header asking for more (a proxy's
 * mistake, a hostile answer, `999999999`) would otherwise stop every lookup for years, stored
 * in the lookup store and kept across restarts. After a day the service asks again: if HIBP
 * still wants it to wait, its next 429 says so.
 */
export const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

export interface RetryAfter {
  /** The wait the service takes: what was asked, at most {@link MAX_RETRY_AFTER_MS}. */
  ms: number;
  /** What the header asked for (may be far more, or Infinity). */
  askedMs: number;
}

const WEEKDAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110 §5.6.7: IMF-fixdate, and the two obsolete forms a recipient must still read. */
const IMF_FIXDATE = new RegExp(`^${WEEKDAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_WEEKDAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${WEEKDAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * `Retry-After = HTTP-date / delay-seconds` (RFC 9110 §10.2.3): whole seconds, or the time after
 * which to ask again, judged at `now`. Undefined when absent or neither form.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): RetryAfter | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  let askedMs: number;
  if (/^\d+$/.test(text)) askedMs = Number(text) * 1000;
  else {
    // asctime carries no zone; HTTP dates are always GMT (Date.parse would read it as local time).
    const at = IMF_FIXDATE.test(text) || RFC850_DATE.test(text) ? Date.parse(text) : ASCTIME_DATE.test(text) ? Date.parse(`${text} GMT`) : Number.NaN;
    if (Number.isNaN(at)) return undefined;
    askedMs = Math.max(0, at - now);
  }
  return { ms: Math.min(askedMs, MAX_RETRY_AFTER_MS), askedMs };
}

/**
 * Says once (per worker) that a `retry-after` asked for more than the service waits: a header
 * such as `999999999` repeated on every answer must not become a log line per request.
 */
export class RetryAfterNotice {
  readonly #logger: Pick<Logger, 'warn'>;
  #told = false;

  constructor(logger: Pick<Logger, 'warn'>) {
    this.#logger = logger;
  }

  note(error: { retryAfterAskedMs?: number | undefined; retryAfterMs?: number | undefined }): void {
    if (this.#told || error.retryAfterAskedMs === undefined) return;
    this.#told = true;
    const asked = Number.isFinite(error.retryAfterAskedMs) ? `${Math.round(error.retryAfterAskedMs / 3_600_000)} h` : 'without end';
    this.#logger.warn(
      { retryAfterAskedMs: error.retryAfterAskedMs, waitMs: error.retryAfterMs },
      `Have I Been Pwned's retry-after asked to wait ${asked}; the service waits at most ${MAX_RETRY_AFTER_MS / 3_600_000} h and then asks again (said once)`,
    );
  }
}
