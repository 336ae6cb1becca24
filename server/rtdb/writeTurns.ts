/**
 * Spreads large writes over turns of the event loop. Each stream's first `put` carries the whole
 * value of its location: 200 streams of a 0.7 MB location opened at once wrote 140 MB in one
 * turn, and every other request waited for it (`service_loop_delay_max_sse_fanout_200`).
 * Writers take turns: one at a time (between its `take` and its release, a writer reads and
 * writes; the next one's read is then answered from the snapshot cache), and once the bytes
 * written in this turn of the loop pass the budget, the next writer waits for a later turn
 * (`setImmediate`, so the requests that arrived meanwhile are answered in between). In the order
 * they asked; nothing is dropped, and a stream writes nothing before its first write.
 */
export class WriteTurns {
  readonly #bytesPerTurn: number;
  #spent = 0;
  /** A writer holds the turn (took it, has not released it). */
  #busy = false;
  /** The reset of `#spent` for the next turn of the loop is queued. */
  #turnQueued = false;
  readonly #waiting: (() => void)[] = [];

  constructor(bytesPerTurn = 1024 * 1024) {
    this.#bytesPerTurn = bytesPerTurn;
  }

  /**
   * Resolves when the caller may write, with the release it must call once (with the bytes it
   * wrote, 0 when it wrote nothing or failed): the next writer waits until then.
   */
  async take(): Promise<(bytes: number) => void> {
    if (this.#busy || this.#waiting.length > 0 || this.#spent >= this.#bytesPerTurn) {
      await new Promise<void>((resolve) => {
        this.#waiting.push(resolve);
        this.#letNextThrough();
      });
    } else this.#busy = true;
    let released = false;
    return (bytes) => {
      if (released) return;
      released = true;
      this.#spent += bytes;
      this.#busy = false;
      this.#queueTurn();
      this.#letNextThrough();
    };
  }

  /** Writers waiting for a turn (for tests and figures). */
  get waiting(): number {
    return this.#waiting.length;
  }

  #letNextThrough(): void {
    if (this.#busy || this.#spent >= this.#bytesPerTurn) return;
    const next = this.#waiting.shift();
    if (!next) return;
    this.#busy = true;
    next();
  }

  /** The budget is per turn of the loop: it starts again in the next one, which lets the next writer through. */
  #queueTurn(): void {
    if (this.#turnQueued) return;
    this.#turnQueued = true;
    setImmediate(() => {
      this.#turnQueued = false;
      this.#spent = 0;
      this.#letNextThrough();
    });
  }
}
