import { setLongTimeout } from '../timers.ts';

/**
 * Time as the lookup queue sees it. Injected so tests can run minutes of rate-limited demand in
 * moments (see `test/support/simulatedClock.ts`); the service uses {@link systemClock}.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or early when `signal` aborts (never rejects). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        timer.cancel();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      // Any length: a hold of days (HIBP's retry-after, a back-off) must not become a 1 ms timer.
      const timer = setLongTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
};
