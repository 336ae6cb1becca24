// Waiting in tests without sleeping for a fixed time: wait for a promise or event where there is
// one; where there is none (state in another process, a file, a service), poll with a deadline
// and fail saying what was awaited. The poll's interval only spaces out the checks: it is never
// the thing a test relies on.
import { setTimeout as delay } from 'node:timers/promises';

const POLL_INTERVAL_MS = 20;

/**
 * Calls `probe` until it returns something other than `undefined` or `false`, and returns that.
 * After `timeoutMs` it throws "timed out after … waiting for <what>", with the probe's last error.
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await delay(POLL_INTERVAL_MS);
  }
}
