import { createHash } from 'node:crypto';
import { CoreError } from '../../../shared/ipc/index.ts';
import { fetchPwnedRange, PwnedRangeError, type PwnedRangeFailure } from './pwnedPasswordsRange.ts';

/**
 * Six requests at a time: what a browser opens to one host over HTTP/1.1, so the range API sees
 * no more from this app than from a person's browser tab. Pwned Passwords documents no rate limit
 * on the range API (haveibeenpwned.com/API/v3#PwnedPasswords) and answers from a CDN; six is
 * enough to hide the round trip (2,000 passwords ≈ 1,950 prefixes ≈ 325 round trips) without
 * looking like a flood.
 */
export const DEFAULT_CONCURRENCY = 6;

/** Waits between tries while the network is down; the last repeats until it is back or the pass is cancelled. */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 5_000, 15_000, 30_000, 60_000];

/** A Retry-After longer than this is taken as this: the person sees the pass go on within a quarter of an hour. */
const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Failures that say nothing about the request: the network or the service; the pass waits and tries again. */
const TRANSIENT: ReadonlySet<PwnedRangeFailure> = new Set(['offline', 'timeout', 'server', 'rate-limited']);

export interface PwnedPasswordPassOptions {
  /** The range API's origin (Settings: default https://api.pwnedpasswords.com). */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Range requests at most in flight at once (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  signal?: AbortSignal;
  /** Counted in passwords: a prefix's answer settles every password that shares it. */
  onProgress?: (progress: { done: number; total: number }) => void;
  /** A sentence while the pass waits for the network; null once it goes on. */
  onWaiting?: (message: string | null) => void;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Checks every password of an import against Pwned Passwords with the k-anonymity range API:
 * each password's SHA-1 is computed here and only its first 5 hexadecimal characters are sent
 * (fetchPwnedRange asks with `Add-Padding`), once per distinct prefix, at most `concurrency` at
 * a time. Answers `key → how often the password was seen in breaches` (0: not found) for every key.
 *
 * While the network is down (no connection, a timeout, 5xx, 429) the pass does not fail: it says
 * so through `onWaiting`, one request probes after each delay while the others hold, and it goes
 * on from where it stopped once a probe is answered. An answer it cannot read, or a refusal (a
 * wrong address), fails the pass with that sentence: asking again would get the same. Cancelling
 * rejects with CoreError 'cancelled' at once, waiting or not.
 *
 * Nothing here logs: no password, no hash, no suffix leaves this function but the prefixes.
 */
export async function checkPwnedPasswords(passwords: ReadonlyMap<string, string>, options: PwnedPasswordPassOptions): Promise<Map<string, number>> {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError(`concurrency must be a positive integer, not ${concurrency}`);
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (retryDelaysMs.length === 0) throw new RangeError('retryDelaysMs must hold at least one delay');
  const sleep = options.sleep ?? sleepFor;
  if (options.signal?.aborted) throw cancelled();

  // Each prefix's logins, by the rest of their hash: all the pass keeps of a password once hashed.
  const byPrefix = new Map<string, Array<{ key: string; suffix: string }>>();
  for (const [key, password] of passwords) {
    const hash = createHash('sha1').update(password, 'utf8').digest('hex').toUpperCase();
    const prefix = hash.slice(0, 5);
    const waiting = byPrefix.get(prefix);
    if (waiting) waiting.push({ key, suffix: hash.slice(5) });
    else byPrefix.set(prefix, [{ key, suffix: hash.slice(5) }]);
  }
  const total = passwords.size;
  const counts = new Map<string, number>();
  let done = 0;
  options.onProgress?.({ done, total });
  if (total === 0) return counts;

  // A failure other than the network's stops every worker; the first one is what the caller hears.
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  const aborted = abortedPromise(signal);
  let failure: { error: unknown } | undefined;

  /** Set while the network is down: the other workers hold until the prober gets an answer. */
  let outage: Promise<void> | undefined;

  const ask = (prefix: string) => fetchPwnedRange({ baseUrl: options.baseUrl, prefix, fetch: options.fetch, signal });

  /** Waits out the outage from this worker: after each delay one request (this prefix's) goes out. */
  const probeUntilAnswered = async (prefix: string, first: PwnedRangeError) => {
    let release!: () => void;
    let fail!: (error: unknown) => void;
    outage = new Promise<void>((resolve, reject) => {
      release = resolve;
      fail = reject;
    });
    // The holders hear of a failure through `failure`, not through this promise.
    outage.catch(() => undefined);
    let error = first;
    try {
      for (let attempt = 0; ; attempt++) {
        const delay = delayFor(error, retryDelaysMs[Math.min(attempt, retryDelaysMs.length - 1)]!);
        options.onWaiting?.(waitingSentence(error.kind, delay));
        await Promise.race([sleep(delay, signal), aborted]);
        try {
          const range = await ask(prefix);
          outage = undefined;
          options.onWaiting?.(null);
          release();
          return range;
        } catch (next) {
          if (!isTransient(next)) throw next;
          error = next;
        }
      }
    } catch (stopped) {
      outage = undefined;
      fail(stopped);
      throw stopped;
    }
  };

  const rangeOf = async (prefix: string) => {
    for (;;) {
      while (outage) await Promise.race([outage, aborted]);
      try {
        return await ask(prefix);
      } catch (error) {
        if (!isTransient(error)) throw error;
        // Another worker is already probing: hold with the others, then ask again.
        if (outage) continue;
        return await probeUntilAnswered(prefix, error);
      }
    }
  };

  const prefixes = [...byPrefix.keys()];
  let next = 0;
  const worker = async () => {
    try {
      while (next < prefixes.length && !signal.aborted) {
        const prefix = prefixes[next++]!;
        const range = await rangeOf(prefix);
        const found = new Map(range.entries.map((entry) => [entry.suffix, entry.count]));
        const logins = byPrefix.get(prefix)!;
        for (const { key, suffix } of logins) counts.set(key, found.get(suffix) ?? 0);
        // The rest of these hashes is no longer needed: drop it now, not when the pass ends.
        byPrefix.delete(prefix);
        done += logins.length;
        options.onProgress?.({ done, total });
      }
    } catch (error) {
      failure ??= { error };
      stop.abort();
    }
  };

  await Promise.all(Array.from({ length: Math.min(concurrency, prefixes.length) }, worker));
  byPrefix.clear();
  if (options.signal?.aborted) throw cancelled();
  if (failure) throw failure.error;
  return counts;
}

function isTransient(error: unknown): error is PwnedRangeError {
  return error instanceof PwnedRangeError && TRANSIENT.has(error.kind);
}

function delayFor(error: PwnedRangeError, planned: number): number {
  if (error.kind === 'rate-limited' && error.retryAfterMs !== undefined) return Math.min(Math.max(error.retryAfterMs, 0), MAX_RETRY_AFTER_MS);
  return planned;
}

function waitingSentence(kind: PwnedRangeFailure, delayMs: number): string {
  const when = delayMs < 60_000 ? `${Math.max(1, Math.ceil(delayMs / 1000))} s` : `${Math.ceil(delayMs / 60_000)} min`;
  if (kind === 'rate-limited') return `Waiting to check passwords with Pwned Passwords, which asked us to slow down: trying again in ${when}.`;
  const why = kind === 'offline' ? 'it cannot be reached' : kind === 'timeout' ? 'it did not answer in time' : 'it answered with an error';
  return `Waiting for the network to check passwords with Pwned Passwords… (${why}; trying again in ${when})`;
}

function cancelled(): CoreError {
  return new CoreError('cancelled', 'The check was cancelled.');
}

/** Rejects with 'cancelled' once the signal aborts; never settles otherwise. */
function abortedPromise(signal: AbortSignal): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(cancelled());
    else signal.addEventListener('abort', () => reject(cancelled()), { once: true });
  });
  promise.catch(() => undefined);
  return promise;
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
