import { DEFAULT_PWNED_PASSWORDS_URL, type Settings } from '../../../shared/ipc/index.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import { fetchPwnedRange } from '../passwords/pwnedPasswordsRange.ts';

export interface PasswordHandlerDeps {
  settings: { get(): Settings };
  fetch?: typeof fetch;
}

/**
 * "Check a password": the UI hashes the password (WebCrypto) and asks for one prefix's range;
 * the suffix is matched in the UI. The core never sees a password or its full hash, logs
 * nothing of the request, and keeps nothing.
 */
export function createPasswordHandlers({ settings, fetch }: PasswordHandlerDeps) {
  return {
    'passwords-range': ({ prefix }) => fetchPwnedRange({ baseUrl: settings.get().pwnedPasswordsUrl ?? DEFAULT_PWNED_PASSWORDS_URL, prefix, ...(fetch ? { fetch } : {}) }),
  } satisfies HandlerSlice;
}
