/** The timer functions a scheduler uses, so tests can pass fakes. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The platform's timers, never keeping a Node process alive (a sync or a follow-up that is due
 * later is no reason not to exit); in a browser, plain timers.
 */
export const backgroundTimers: Timers = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms) as { unref?: () => void };
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
