import { create } from 'zustand';
import type { SyncStatus } from '../../shared/ipc/views.ts';
import { isOlderView } from '../../shared/ipc/viewOrder.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface SyncStore {
  status?: SyncStatus;
  /** Whether this window can reach the app's core (the HTTP transport can drop). */
  connected: boolean;
  requesting: boolean;
  error?: string;
  load(): Promise<void>;
  apply(status: SyncStatus): void;
  setConnected(connected: boolean): void;
  syncNow(): Promise<void>;
  /** Opens the service's sign-up page in the system browser (never inside the app). */
  openSignUp(url: string): Promise<void>;
}

export const useSync = create<SyncStore>()((set, get) => ({
  connected: true,
  requesting: false,
  async load() {
    try {
      get().apply(await invoke('sync-status', {}));
    } catch (error) {
      set({ error: toUiError(error).message });
    }
  },
  apply(status) {
    // An answer can arrive after an event computed later (they travel separately): keep the newer.
    if (!isOlderView(status, get().status)) set({ status });
  },
  setConnected(connected) {
    set({ connected });
  },
  async syncNow() {
    if (get().requesting) return;
    set({ requesting: true, error: undefined });
    try {
      get().apply(await invoke('sync-now', {}));
    } catch (error) {
      set({ error: toUiError(error).message });
    } finally {
      set({ requesting: false });
    }
  },
  async openSignUp(url) {
    try {
      await invoke('open-link', { url });
    } catch (error) {
      set({ error: toUiError(error).message });
    }
  },
}));

// Counts, last sync and errors are the account's: the next account's come with its first status.
onAccountChange(() => useSync.setState({ status: undefined, requesting: false, error: undefined }));

export function isSyncing(status: SyncStatus | undefined): boolean {
  return status !== undefined && status.phase !== 'idle';
}
