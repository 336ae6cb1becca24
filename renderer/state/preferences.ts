import { create } from 'zustand';
import type { Preferences } from '../../shared/catalog/preferences.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

interface PreferencesStore {
  /** The person's preferences shared between their devices (the core keeps a copy for offline use). */
  preferences?: Preferences;
  error?: string;
  load(): Promise<void>;
  /** Applies at once, then saves; the core keeps a change made offline and writes it back later. */
  update(change: (current: Preferences) => Preferences): Promise<void>;
  hide(breachId: string): Promise<void>;
  unhide(breachId: string): Promise<void>;
}

export const usePreferences = create<PreferencesStore>()((set, get) => ({
  async load() {
    try {
      set({ preferences: await invoke('preferences-get', {}), error: undefined });
    } catch (error) {
      set({ error: toUiError(error).message });
    }
  },
  async update(change) {
    const before = get().preferences ?? (await invoke('preferences-get', {}));
    const next = change(before);
    set({ preferences: next, error: undefined });
    try {
      set({ preferences: await invoke('preferences-set', next) });
    } catch (error) {
      // Refused (signed out, invalid): the choice did not stick, so the screen must not pretend it did.
      set({ preferences: before, error: toUiError(error).message });
    }
  },
  hide(breachId) {
    return get().update((p) => (p.hiddenBreaches.includes(breachId) ? p : { ...p, hiddenBreaches: [...p.hiddenBreaches, breachId] }));
  },
  unhide(breachId) {
    return get().update((p) => ({ ...p, hiddenBreaches: p.hiddenBreaches.filter((id) => id !== breachId) }));
  },
}));

// The preferences (hidden breaches among them) are the person's own.
onAccountChange(() => usePreferences.setState({ preferences: undefined, error: undefined }));
