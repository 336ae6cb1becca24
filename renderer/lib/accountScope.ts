import { Emitter } from '../../shared/base/Emitter.ts';
import type { ChannelName } from '../../shared/ipc/contract.ts';

/**
 * Whose data this window shows. One mechanism for every store that holds an account's data:
 * each registers its reset here ({@link onAccountChange}), and every answer to an account's
 * channel that arrives after the account changed is dropped by `invoke` (lib/core.ts) before any
 * store sees it. So one person's results, filters, drafts and previews never reach the next,
 * whichever store holds them and however late the core answers. A reset that throws is reported
 * and the others still run: one broken store must not leave the rest showing the previous account.
 */

/** Before the first sign-in status is known: the first account seen is not a change. */
const UNKNOWN = Symbol('unknown account');

let current: string | undefined | typeof UNKNOWN = UNKNOWN;
let generation = 0;
const accountChanges = new Emitter<void>({ onListenerError: (error) => console.error('a store could not reset for the new account', error) });

/**
 * Channels whose answers do not belong to one account: sign-in itself (its answer is what
 * changes the account) and the app-wide settings. Every other channel's answer is the account's.
 */
const APP_WIDE = new Set<ChannelName>(['auth-status', 'auth-sign-in', 'auth-cancel', 'auth-sign-out', 'settings-get', 'settings-set', 'open-link']);

export function isAccountChannel(channel: ChannelName): boolean {
  return !APP_WIDE.has(channel);
}

/** Registers a store's reset, run (synchronously) whenever the account changes; returns the unregister. */
export function onAccountChange(reset: () => void): () => void {
  const registration = accountChanges.event(reset);
  return () => registration.dispose();
}

/**
 * The account whose data may show now: its id, or undefined when nobody is signed in. A change
 * (sign-out, another account) resets every registered store before anything else runs.
 */
export function setAccount(accountId: string | undefined): void {
  if (current === accountId) return;
  const first = current === UNKNOWN;
  current = accountId;
  if (first) return;
  generation += 1;
  accountChanges.fire();
}

/** The account now (undefined: nobody, or not known yet). */
export function currentAccount(): string | undefined {
  return current === UNKNOWN ? undefined : current;
}

/**
 * A ticket taken when a request is sent: `current()` is false once the account changed, so the
 * answer (or its error) belongs to someone who is no longer here.
 */
export function accountTicket(): { account: string | undefined; current(): boolean } {
  const asked = generation;
  return { account: currentAccount(), current: () => asked === generation };
}

/** For tests: back to "not known yet" (registrations stay: they belong to the modules). */
export function resetAccountScope(): void {
  current = UNKNOWN;
  generation += 1;
}
