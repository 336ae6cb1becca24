import type { Timers } from '../../../electron/core/sync/SyncScheduler.ts';

/** Timers driven by the test: nothing fires until `advance`, and `now` is the fake clock. */
export class FakeTimers implements Timers {
  now: number;
  #next = 1;
  readonly #pending = new Map<number, { at: number; callback: () => void }>();

  constructor(start: number) {
    this.now = start;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#pending.set(id, { at: this.now + Math.max(0, ms), callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** Delays of the timers still armed, from now. */
  get armed(): number[] {
    return [...this.#pending.values()].map((t) => t.at - this.now).sort((a, b) => a - b);
  }

  /** Moves the clock, firing due timers in order; lets promises settle after each. */
  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.#pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
      await settle();
    }
    this.now = until;
    await settle();
  }
}

/** Lets every pending promise chain run (the in-process fakes never touch real I/O). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}
