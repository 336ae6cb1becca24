import {
  failedResolutionsNotification,
  newBreachesNotification,
  newSiteBreachesNotification,
  signInNeededNotification,
  type AuthStatus,
  type CoreNotification,
  type FailedResolutionNotice,
  type NewBreachNotice,
  type SiteBreachNotice,
} from '../../../shared/ipc/index.ts';

export interface NotifierPolicyOptions {
  /** Shows a notification (the host's). */
  show(notification: CoreNotification): void;
  /** The person's "Notifications" setting, read at the moment of notifying. */
  enabled(): boolean;
  /** The person's "new breaches" choice shared between their devices; default on. */
  newBreachesEnabled?(): boolean;
  /** True while the account's exposures are invented demo data: new ones are never notified (the app shows them, labelled). */
  demoData?(): boolean;
}

/**
 * When the core notifies: only with notifications on and not paused from the tray; the
 * sign-in reminder once per loss of the sign-in, not on every status repeat. What the
 * notifications say lives beside their message schema in `shared/ipc/host.ts`.
 */
export class NotifierPolicy {
  readonly #options: NotifierPolicyOptions;
  #paused = false;
  #authState: AuthStatus['state'] | undefined;

  constructor(options: NotifierPolicyOptions) {
    this.#options = options;
  }

  get paused(): boolean {
    return this.#paused;
  }

  setPaused(paused: boolean): void {
    this.#paused = paused;
  }

  /** Every sign-in status change: reminds once when the account starts needing a new sign-in. */
  observeAuthState(state: AuthStatus['state']): void {
    if (state === 'sign-in-needed' && this.#authState !== 'sign-in-needed') this.#show(signInNeededNotification());
    this.#authState = state;
  }

  newBreaches(breaches: readonly NewBreachNotice[]): void {
    if (this.#options.newBreachesEnabled?.() === false) return;
    // A notification outlives the app's labels: it must never announce an invented breach as real.
    if (this.#options.demoData?.()) return;
    this.#show(newBreachesNotification(breaches));
  }

  /** Breaches new to the catalog at sites of the person's logins: the same choices as a new breach of an address. */
  siteBreaches(breaches: readonly SiteBreachNotice[]): void {
    if (this.#options.newBreachesEnabled?.() === false) return;
    if (this.#options.demoData?.()) return;
    this.#show(newSiteBreachesNotification(breaches));
  }

  failedResolutions(failures: readonly FailedResolutionNotice[]): void {
    this.#show(failedResolutionsNotification(failures));
  }

  #show(notification: CoreNotification | undefined): void {
    if (!notification || this.#paused || !this.#options.enabled()) return;
    this.#options.show(notification);
  }
}
