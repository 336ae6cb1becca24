import type { Clock } from './clock.ts';

/**
 * A background worker's loop: runs `turn` again and again until stopped, sleeping between turns
 * as long as the turn answered (ms; 0 or less runs the next turn at once). `wake()` cuts the
 * current sleep short, and a wake during a turn cuts the sleep after it: the signal is renewed
 * before each turn, not after. `stop()` ends the sleep and resolves once the turn in progress is done.
 */
export class WorkerLoop {
  readonly #clock: Clock;
  readonly #turn: () => Promise<number>;
  #wake = new AbortController();
  #stopped = false;
  #running: Promise<void> | undefined;

  constructor(clock: Clock, turn: () => Promise<number>) {
    this.#clock = clock;
    this.#turn = turn;
  }

  start(): void {
    if (!this.#stopped) this.#running ??= this.#run();
  }

  wake(): void {
    this.#wake.abort();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake.abort();
    await this.#running;
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      if (this.#wake.signal.aborted) this.#wake = new AbortController();
      const delay = await this.#turn();
      if (this.#stopped) break;
      if (delay > 0) await this.#clock.sleep(delay, this.#wake.signal);
    }
  }
}
