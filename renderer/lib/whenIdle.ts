/**
 * Runs `run` once the browser has a quiet moment (`requestIdleCallback`, at most `timeoutMs`
 * later): for work the screen can show a moment later, so it does not compete with what a person
 * is doing right now (the first rows, a click). Returns a function that cancels it.
 */
export function whenIdle(run: () => void, timeoutMs = 1000): () => void {
  if (typeof requestIdleCallback !== 'function') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  const idle = requestIdleCallback(run, { timeout: timeoutMs });
  return () => cancelIdleCallback(idle);
}

/** {@link whenIdle} as a promise. */
export function idle(timeoutMs?: number): Promise<void> {
  return new Promise((resolve) => whenIdle(resolve, timeoutMs));
}
