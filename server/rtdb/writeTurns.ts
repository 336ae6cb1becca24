/**
 * Spreads streams' writes over turns of the event loop. Each stream's first `put` carries the
 * whole value of its location: 200 streams of a 0.7 MB location opened at once wrote 140 MB in
 * one turn; and a change's `put` goes to every stream of its location, 200 `writev` calls in one
 * turn. Every other request waited for them (`service_loop_delay_max_sse_fanout_200`).
 * Writers take turns: one at a time (between its `take` and its release, a writer reads and
 * writes; the next one's read is then answered from the snapshot cache), and once the bytes or
 * the writes of this turn of the loop pass their budget, the next writer waits for a later turn
 * (`setImmediate`, so the requests that arrived meanwhile are answered in between). In the order
 * they asked; nothing is dropped, and each stream's writes keep their order.
 */
export class WriteTurns {
  readonly #bytesPerTurn: number;
  readonly #writesPerTurn: number;
  #spent = 0;
  #writes = 0;
  /** A writer holds the turn (took it, has not released it). */
  #busy = false;
  /** The reset of `#spent` for the next turn of the loop is queued. */
  #turnQueued = false;
  readonly #waiting: (() => void)[] = [];

  constructor(bytesPerTurn = 1024 * 1024, writesPerTurn = 25) {
    this.#bytesPerTurn = bytesPerTurn;
    this.#writesPerTurn = writesPerTurn;
  }

  /**
   * Resolves when the caller may write, with the release it must call once (with the bytes it
   * wrote, 0 when it wrote nothing or failed): the next writer waits until then.
   */
  async take(): Promise<(bytes: number) => void> {
    if (this.#busy || this.#waiting.length > 0 || this.#turnIsFull()) {
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
      if (bytes > 0) this.#writes += 1;
      this.#busy = false;
      this.#queueTurn();
      this.#letNextThrough();
    };
  }

  /** Writers waiting for a turn (for tests and figures). */
  get waiting(): number {
    return this.#waiting.length;
  }

  #turnIsFull(): boolean {
    return this.#spent >= this.#bytesPerTurn || this.#writes >= this.#writesPerTurn;
  }

  #letNextThrough(): void {
    if (this.#busy || this.#turnIsFull()) return;
    const next = this.#waiting.shift();
    if (!next) return;
    this.#busy = true;
    next();
  }

  /** The budgets are per turn of the loop: they start again in the next one, which lets the next writer through. */
  #queueTurn(): void {
    if (this.#turnQueued) return;
    this.#turnQueued = true;
    setImmediate(() => {
      this.#turnQueued = false;
      this.#spent = 0;
      this.#writes = 0;
      this.#letNextThrough();
    });
  }
}
