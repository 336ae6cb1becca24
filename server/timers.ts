/**
 * The longest delay Node's timers take (2³¹ − 1 ms, about 24.8 days). A longer one is not
 * refused: Node arms it for 1 ms and warns (`TimeoutOverflowWarning`), so a wait meant to last
 * weeks would spin and log without end. Every wait of the service that is not a small constant
 * goes through {@link setLongTimeout} (or `systemClock.sleep`, which does).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LongTimeout {
  cancel(): void;
}

/**
 * Calls `callback` after `ms` (at least 0, any length; not a number counts as 0): a wait longer
 * than {@link MAX_TIMER_MS} is armed as a chain of timers of at most that length. `unref`: the
 * wait does not keep the process alive.
 */
export function setLongTimeout(callback: () => void, ms: number, options: { unref?: boolean } = {}): LongTimeout {
  let left = Number.isNaN(ms) ? 0 : Math.max(0, ms);
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    timer = setTimeout(() => (left > 0 ? arm() : callback()), step);
    if (options.unref) timer.unref();
  };
  arm();
  return { cancel: () => clearTimeout(timer) };
}
