/** How a promise ended: its value, or why it failed. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** The promise's outcome as a value: never rejects (a failure is `{ ok: false, error }`). */
export function settled<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value): Settled<T> => ({ ok: true, value }),
    (error: unknown): Settled<T> => ({ ok: false, error }),
  );
}
