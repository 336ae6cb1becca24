import { connect } from 'node:net';
import { backgroundTimers, type Timers } from '../../../shared/base/timers.ts';
import type { Disposable } from '../../../shared/base/lifecycle.ts';

/**
 * How often the service is knocked on. While it answers, every 7 s: a service that went away is
 * told within 10 s (7 s between knocks, a refused connection answers at once, an unanswered one
 * fails after `timeoutMs`). While it does not, every second: it is told back within 2 s of
 * answering again.
 */
export const SERVICE_WATCH_DEFAULTS = { answeringIntervalMs: 7_000, silentIntervalMs: 1_000, timeoutMs: 2_000 } as const;

export interface ServiceWatchOptions {
  /** The service's address (the API base): its host and port are knocked on. */
  url: string;
  /** Called when the answer changes: at the first knock (`before` undefined), then only on a change. */
  onChange(answering: boolean, before: boolean | undefined): void;
  timers?: Timers;
  answeringIntervalMs?: number;
  silentIntervalMs?: number;
  timeoutMs?: number;
}

/**
 * Whether the service is there, told without anyone acting: syncs are minutes apart, so a
 * service that died while the person was idle was shown "Online" until their next action.
 *
 * A knock is a TCP connection opened and closed at once: no request, no TLS, no token, nothing
 * the service parses or logs. A killed service's port refuses it at once; a host gone away does
 * not answer within `timeoutMs`. On loopback (the app's own service, the usual case) a knock
 * costs a few microseconds, ~12,000 a day. A kept-alive connection whose close is noticed would
 * cost nothing while idle, but the service closes a connection that sends nothing after 5 s
 * (`--idle-timeout`, its defence against idle sockets) and any other kept-alive one after 65 s,
 * a close indistinguishable from a death; holding an event stream open needs one the contract
 * does not have. The knock is what any service of the contract answers.
 */
export class ServiceWatch implements Disposable {
  readonly #host: string;
  readonly #port: number;
  readonly #options: ServiceWatchOptions;
  readonly #timers: Timers;
  #answering: boolean | undefined;
  #timer: unknown;
  #disposed = false;
  #knocking: (() => void) | undefined;

  constructor(options: ServiceWatchOptions) {
    const url = new URL(options.url);
    this.#host = url.hostname.replace(/^\[|\]$/g, '');
    this.#port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
    this.#options = options;
    this.#timers = options.timers ?? backgroundTimers;
  }

  /** The last knock's answer; undefined before the first. */
  get answering(): boolean | undefined {
    return this.#answering;
  }

  /** Knocks now, then on the interval its answer calls for. */
  start(): void {
    void this.#knockAndRearm();
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#knocking?.();
  }

  async #knockAndRearm(): Promise<void> {
    this.#timer = undefined;
    const answering = await this.#knock();
    if (this.#disposed) return;
    const before = this.#answering;
    this.#answering = answering;
    const interval = answering ? (this.#options.answeringIntervalMs ?? SERVICE_WATCH_DEFAULTS.answeringIntervalMs) : (this.#options.silentIntervalMs ?? SERVICE_WATCH_DEFAULTS.silentIntervalMs);
    // Armed before the listener runs: a listener that throws cannot stop the watch.
    this.#timer = this.#timers.setTimeout(() => void this.#knockAndRearm(), interval);
    if (answering !== before) this.#options.onChange(answering, before);
  }

  /** True when the port accepts a connection within the timeout. */
  #knock(): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = connect({ host: this.#host, port: this.#port });
      let settled = false;
      const done = (answered: boolean) => {
        if (settled) return;
        settled = true;
        this.#knocking = undefined;
        this.#timers.clearTimeout(timeout);
        socket.destroy();
        resolve(answered);
      };
      const timeout = this.#timers.setTimeout(() => done(false), this.#options.timeoutMs ?? SERVICE_WATCH_DEFAULTS.timeoutMs);
      this.#knocking = () => done(false);
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
  }
}
