// A clock for the lookup queue that tests move by hand: minutes of rate-limited demand run in
// moments, and every time the service and the HIBP stand-in record is exact (a request takes no
// simulated time). Time moves only in advanceTo/advanceBy; each sleeper woken is let run (real
// I/O included) until the expected number of loops are asleep again before time moves on.
import type { Clock } from '../../server/hibp/clock.ts';

interface Timer {
  at: number;
  resolve: () => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class SimulatedClock implements Clock {
  #now: number;
  #timers: Timer[] = [];
  /** How many loops sleep when the system is quiet (one lookup queue per instance, one catalog refresher per instance that fetches it). */
  loops: number;

  constructor(start: number, loops: number) {
    this.#now = start;
    this.loops = loops;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        resolve,
        signal,
        onAbort: () => {
          this.#remove(timer);
          resolve();
        },
      };
      signal?.addEventListener('abort', timer.onAbort, { once: true });
      this.#timers.push(timer);
    });
  }

  /** Sleepers now. */
  get sleepers(): number {
    return this.#timers.length;
  }

  /** Waits (real time) until every loop sleeps: what the last wake or request set off has finished. */
  async settle(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Twice in a row, a few turns apart: a loop between two sleeps is not yet asleep.
    let quietTurns = 0;
    while (quietTurns < 2) {
      if (Date.now() > deadline) throw new Error(`simulated clock: ${this.#timers.length} of ${this.loops} loops asleep after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 2));
      quietTurns = this.#timers.length >= this.loops ? quietTurns + 1 : 0;
    }
  }

  /** Moves time to `until`, waking sleepers in time order and letting each run before the next. */
  async advanceTo(until: number): Promise<void> {
    await this.settle();
    for (;;) {
      const next = this.#timers.reduce<Timer | undefined>((earliest, timer) => (earliest === undefined || timer.at < earliest.at ? timer : earliest), undefined);
      if (!next || next.at > until) break;
      this.#now = Math.max(this.#now, next.at);
      this.#remove(next);
      next.resolve();
      await this.settle();
    }
    this.#now = Math.max(this.#now, until);
  }

  advanceBy(ms: number): Promise<void> {
    return this.advanceTo(this.#now + ms);
  }

  /** Advances until `done()` holds, or `limitMs` of simulated time have passed; the simulated time it took. */
  async runUntil(done: () => Promise<boolean> | boolean, limitMs: number, stepMs = 1000): Promise<number> {
    const start = this.#now;
    while (!(await done())) {
      if (this.#now - start >= limitMs) throw new Error(`simulated clock: not done after ${limitMs} ms of simulated time`);
      await this.advanceBy(stepMs);
    }
    return this.#now - start;
  }

  #remove(timer: Timer): void {
    timer.signal?.removeEventListener('abort', timer.onAbort);
    this.#timers = this.#timers.filter((t) => t !== timer);
  }
}
