import { CoreError, type PasswordCheckStatus } from '../../../shared/ipc/index.ts';

/** Pwned Passwords' pass over many passwords (passwords/pwnedPasswordPass.ts's checkPwnedPasswords). */
export type CheckPasswords = (
  passwords: ReadonlyMap<string, string>,
  options: {
    signal: AbortSignal;
    onProgress: (progress: { done: number; total: number }) => void;
    onWaiting: (message: string | null) => void;
  },
) => Promise<Map<string, number>>;

export interface PasswordCheckOptions {
  check: CheckPasswords;
  /** The counts found, by keyed hash (0: not found); written to the database the pass was started for. */
  record(counts: Map<string, number>): void;
  /** The status moved: `logins-changed`. */
  changed(): void;
  /** The pass failed for another reason than a cancel: what the log says (never a password: the error is the pass's own). */
  failed?(error: unknown): void;
}

const IDLE: PasswordCheckStatus = { state: 'idle', done: 0, total: 0, message: null };

/**
 * The background Pwned Passwords check of the last import's distinct passwords. The passwords
 * are held here, in memory, keyed by keyed hash, and only while the pass runs: they are dropped
 * when it ends, fails or is cancelled. A new import while a pass runs starts one pass over both
 * sets (the earlier one's passwords are not lost from the check, and not kept longer either).
 */
export class PasswordCheck {
  readonly #options: PasswordCheckOptions;
  #status: PasswordCheckStatus = IDLE;
  #running: { controller: AbortController; passwords: Map<string, string>; done: Promise<void> } | undefined;

  constructor(options: PasswordCheckOptions) {
    this.#options = options;
  }

  get status(): PasswordCheckStatus {
    return this.#status;
  }

  /** Whether the pass holds the password with this keyed hash (its login is `unchecked`, not `needs-import`). */
  holds(hash: string): boolean {
    return this.#running?.passwords.has(hash) ?? false;
  }

  /** Starts (or restarts, with the passwords of the running pass too) the pass; returns when it is under way. */
  start(passwords: ReadonlyMap<string, string>): void {
    const previous = this.#running;
    const merged = new Map(previous?.passwords ?? []);
    for (const [hash, password] of passwords) merged.set(hash, password);
    if (previous) {
      previous.controller.abort();
      previous.passwords.clear();
    }
    if (merged.size === 0) return;
    const controller = new AbortController();
    this.#status = { state: 'running', done: 0, total: merged.size, message: null };
    const running = { controller, passwords: merged, done: Promise.resolve() };
    this.#running = running;
    running.done = this.#run(running);
    this.#options.changed();
  }

  /** Stops the pass; its passwords are dropped. */
  cancel(): void {
    const running = this.#running;
    if (!running) return;
    running.controller.abort();
    this.#finish(running, {
      state: 'cancelled',
      done: this.#status.done,
      total: this.#status.total,
      message: 'Stopped: the passwords not yet checked were dropped. Import the export again to check them.',
    });
  }

  /** The account closed: the pass stops, and the status starts again for the next one. */
  reset(): void {
    this.cancel();
    this.#status = IDLE;
  }

  /** Resolves once the running pass (if any) has ended (tests; shutdown). */
  async settled(): Promise<void> {
    await this.#running?.done;
  }

  async #run(running: { controller: AbortController; passwords: Map<string, string> }): Promise<void> {
    const { signal } = running.controller;
    try {
      const counts = await this.#options.check(running.passwords, {
        signal,
        onProgress: ({ done, total }) => {
          if (this.#running !== running) return;
          this.#status = { state: 'running', done, total, message: null };
          this.#options.changed();
        },
        onWaiting: (message) => {
          if (this.#running !== running) return;
          this.#status = { ...this.#status, state: message === null ? 'running' : 'waiting-for-network', message };
          this.#options.changed();
        },
      });
      if (this.#running !== running || signal.aborted) return;
      this.#options.record(counts);
      this.#finish(running, { state: 'done', done: this.#status.total, total: this.#status.total, message: null });
    } catch (error) {
      if (this.#running !== running) return;
      if (error instanceof CoreError && error.code === 'cancelled') {
        this.#finish(running, { ...this.#status, state: 'cancelled', message: 'Stopped: the passwords not yet checked were dropped. Import the export again to check them.' });
        return;
      }
      this.#options.failed?.(error);
      const why = error instanceof CoreError ? error.message : 'the check stopped on an error';
      this.#finish(running, { ...this.#status, state: 'failed', message: `The Pwned Passwords check could not finish: ${why} Import the export again to check the rest.` });
    }
  }

  #finish(running: { passwords: Map<string, string> }, status: PasswordCheckStatus): void {
    running.passwords.clear();
    if (this.#running === running) this.#running = undefined;
    this.#status = status;
    this.#options.changed();
  }
}
