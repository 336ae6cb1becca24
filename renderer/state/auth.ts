import { create } from 'zustand';
import type { AuthStatus } from '../../shared/ipc/views.ts';
import { isOlderView } from '../../shared/ipc/viewOrder.ts';
import { setAccount } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface AuthStore {
  status?: AuthStatus;
  /** What this window asked for and is waiting on; the core's own state is in `status`. */
  busy: 'idle' | 'signing-in' | 'signing-out';
  /** Why the last attempt failed, in words; cleared by the next attempt. */
  error?: string;
  loadError?: string;
  load(): Promise<void>;
  apply(status: AuthStatus): void;
  signIn(): Promise<void>;
  cancel(): Promise<void>;
  signOut(deleteLocalData: boolean): Promise<boolean>;
}

/** The account whose data may show under this status: none while signed out or signing in afresh. */
export function accountOf(status: AuthStatus): string | undefined {
  return status.state === 'signed-out' ? undefined : status.account?.accountId;
}

export const useAuth = create<AuthStore>()((rawSet, get) => {
  // Every status this window learns passes the account scope first: a change of account resets
  // every store holding account data before the new status draws anything.
  // A status computed before the one shown (an answer that crossed an event) is dropped whole:
  // it would take the window back to the previous account or state.
  const set = (patch: Partial<AuthStore>) => {
    if (patch.status && isOlderView(patch.status, get().status)) {
      const { status: _older, ...rest } = patch;
      patch = rest;
    }
    if (patch.status) setAccount(accountOf(patch.status));
    rawSet(patch);
  };
  return {
    busy: 'idle',
    async load() {
      try {
        const status = await invoke('auth-status', {});
        set({ status, loadError: undefined });
      } catch (error) {
        set({ loadError: toUiError(error).message });
      }
    },
    apply(status) {
      set({ status });
    },
    async signIn() {
      if (get().busy === 'signing-in') return;
      set({ busy: 'signing-in', error: undefined });
      try {
        // The call may resolve only when the browser flow ends; `auth-changed` events keep the
        // status current meanwhile.
        const status = await invoke('auth-sign-in', {});
        set({ status, error: status.state === 'signed-in' ? undefined : status.error });
      } catch (error) {
        const uiError = toUiError(error);
        if (uiError.code !== 'cancelled') set({ error: uiError.message });
      } finally {
        set({ busy: 'idle' });
      }
    },
    async cancel() {
      try {
        await invoke('auth-cancel', {});
      } catch (error) {
        set({ error: toUiError(error).message });
      }
      set({ busy: 'idle' });
    },
    async signOut(deleteLocalData) {
      set({ busy: 'signing-out', error: undefined });
      try {
        const status = await invoke('auth-sign-out', { deleteLocalData });
        set({ status });
        return true;
      } catch (error) {
        set({ error: toUiError(error).message });
        return false;
      } finally {
        set({ busy: 'idle' });
      }
    },
  };
});

/** The state to draw: a request in flight counts as signing in before the core says so. */
export function effectiveAuthState(store: Pick<AuthStore, 'status' | 'busy'>): AuthStatus['state'] | 'loading' {
  if (store.busy === 'signing-in') return 'signing-in';
  return store.status?.state ?? 'loading';
}
