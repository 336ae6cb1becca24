import { CoreError, PwnedPrefix, type PwnedRange } from '../../../shared/ipc/index.ts';
import { parseRetryAfter } from '../api/ApiError.ts';
import { BodyTooLargeError, readBoundedText } from '../../../shared/base/boundedBody.ts';

/** The most of one range answer read. */
export const MAX_RANGE_ANSWER_BYTES = 1024 * 1024;

/**
 * What went wrong with a range request, for a caller that decides what to do (the import's pass
 * waits and tries again on the first four, and stops on the last two); decided from this, never
 * from the wording.
 */
export type PwnedRangeFailure =
  | 'offline' // no connection: refused, reset, DNS, the body cut off
  | 'timeout' // no answer within the time allowed
  | 'server' // 5xx or 408: the service, not the request
  | 'rate-limited' // 429, with its Retry-After when it sent one
  | 'refused' // another 4xx: a wrong address or a request it will never take
  | 'unreadable'; // 200 with something that is not the range format (a captive portal, a wrong address)

/** A failed range request: code 'unavailable' for a UI (unchanged), and its kind for a caller that retries. */
export class PwnedRangeError extends CoreError {
  readonly kind: PwnedRangeFailure;
  /** From a 429's Retry-After (seconds or an HTTP date), in ms. */
  readonly retryAfterMs: number | undefined;
  constructor(kind: PwnedRangeFailure, message: string, retryAfterMs?: number) {
    super('unavailable', message);
    this.kind = kind;
    this.retryAfterMs = retryAfterMs;
  }
}

export interface RangeRequest {
  /** The range API's origin (default https://api.pwnedpasswords.com; a proxy or a test double otherwise). */
  baseUrl: string;
  /** The first 5 hexadecimal characters of a SHA-1, upper case: all that is sent. */
  prefix: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Pwned Passwords' range search: `GET {base}/range/{prefix}` with `Add-Padding: true` (the API
 * then adds random entries with a count of 0, so the answer's size does not tell which prefix
 * was asked; they are dropped here). Only the prefix is in the request: no body, no query, no
 * header about the password. Errors are sentences a person can act on.
 */
export async function fetchPwnedRange(request: RangeRequest): Promise<PwnedRange> {
  const prefix = PwnedPrefix.parse(request.prefix);
  const url = new URL(`range/${prefix}`, request.baseUrl.replace(/\/*$/, '/'));
  const timeoutMs = request.timeoutMs ?? 15_000;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (request.fetch ?? fetch)(url, {
      method: 'GET',
      // A descriptive user agent, as Have I Been Pwned asks of every client.
      headers: { 'add-padding': 'true', accept: 'text/plain', 'user-agent': 'Breach-Monitor (desktop app; Pwned Passwords range check)' },
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    throw networkFailure(error, request.signal, timeout, timeoutMs);
  }
  let text: string;
  try {
    // A range answer is about 40 KB with its padding; 1 MB is past any Pwned Passwords sends.
    text = await readBoundedText(response, MAX_RANGE_ANSWER_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new PwnedRangeError('server', `Pwned Passwords answered more than a range holds (${error.message}). Check the address in Settings.`);
    // The connection dropped (or the time ran out) in the middle of the answer.
    throw networkFailure(error, request.signal, timeout, timeoutMs);
  }
  if (response.status === 429) throw new PwnedRangeError('rate-limited', 'Pwned Passwords asks us to slow down. Try again in a minute.', parseRetryAfter(response.headers.get('retry-after')));
  if (!response.ok) {
    const kind = response.status >= 500 || response.status === 408 ? 'server' : 'refused';
    throw new PwnedRangeError(kind, `Pwned Passwords answered ${response.status}. Try again later, or check the address in Settings.`);
  }
  const entries = readRangeLines(text);
  if (typeof entries === 'number') throw new PwnedRangeError('unreadable', `Pwned Passwords sent an answer this app cannot read (line ${entries}). Check the address in Settings.`);
  return { entries };
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const UPPER_A = 65;
const UPPER_F = 70;
const COLON = 58;
const CR = 13;
const LF = 10;

/**
 * Reads the answer's lines (haveibeenpwned.com/API/v3#SearchingPwnedPasswordsByRange), each
 * `^[0-9A-F]{35}:\d{1,10}$` (the hash's suffix in upper case, `:`, how often it was seen), ended
 * with CRLF as the API sends them or LF (a proxy may rewrite them), the last one ending or not;
 * keeps those with a count above 0 (padding is random suffixes with a count of 0, never real).
 * Answers the number of the first line that is not one, if any. A scan of the
 * characters rather than a split and a regular expression per line: an import's pass reads about
 * 2,000 answers of 800–1,000 lines, and this is most of what it does with them.
 */
function readRangeLines(text: string): PwnedRange['entries'] | number {
  const entries: PwnedRange['entries'] = [];
  const end = text.length;
  let at = 0;
  for (let line = 1; at < end; line++) {
    for (let i = at; i < at + 35; i++) {
      const c = text.charCodeAt(i);
      if (!((c >= DIGIT_0 && c <= DIGIT_9) || (c >= UPPER_A && c <= UPPER_F))) return line;
    }
    if (text.charCodeAt(at + 35) !== COLON) return line;
    let p = at + 36;
    let count = 0;
    for (let c = text.charCodeAt(p); c >= DIGIT_0 && c <= DIGIT_9; c = text.charCodeAt(++p)) count = count * 10 + (c - DIGIT_0);
    const digits = p - (at + 36);
    if (digits < 1 || digits > 10) return line;
    if (count > 0) entries.push({ suffix: text.slice(at, at + 35), count });
    if (p === end) break;
    if (text.charCodeAt(p) === CR && text.charCodeAt(p + 1) === LF) p += 2;
    else if (text.charCodeAt(p) === LF) p += 1;
    else return line;
    at = p;
  }
  return entries;
}

function networkFailure(error: unknown, caller: AbortSignal | undefined, timeout: AbortSignal, timeoutMs: number): CoreError {
  if (caller?.aborted) return new CoreError('cancelled', 'The check was cancelled.');
  if (timeout.aborted) return new PwnedRangeError('timeout', `Pwned Passwords did not answer within ${Math.round(timeoutMs / 1000)} seconds. Try again in a moment.`);
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return new PwnedRangeError('offline', `Pwned Passwords could not be reached (${cause ?? 'network error'}). Check your connection, or the address in Settings.`);
}
