import { create } from 'zustand';
import type { Settings, SettingsChange } from '../../shared/ipc/views.ts';
import { invoke, toUiError, type UiError } from '../lib/core.ts';
import { useAuth } from './auth.ts';
import { useTheme } from './theme.ts';

interface SettingsStore {
  settings?: Settings;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  /** Resolves with the saved settings; rejects with the core's UiError (issues name fields). */
  save(patch: SettingsChange): Promise<Settings>;
  /** True while the guided switch below runs. */
  switching: boolean;
  /**
   * Another service, identity provider or API contract while signed in, in one guided step:
   * sign out (this computer keeps the breaches and the queued changes), save, and start signing
   * in again. False when the sign-out did not happen (the auth store says why; nothing changed).
   */
  switchService(patch: SettingsChange): Promise<boolean>;
}

export const useSettings = create<SettingsStore>()((set, get) => ({
  loading: false,
  switching: false,
  async load() {
    set({ loading: true, error: undefined });
    try {
      const settings = await invoke('settings-get', {});
      set({ settings, loading: false });
      useTheme.getState().set(settings.theme);
    } catch (error) {
      set({ error: toUiError(error).message, loading: false });
    }
  },
  async save(patch) {
    try {
      const settings = await invoke('settings-set', patch);
      set({ settings });
      useTheme.getState().set(settings.theme);
      return settings;
    } catch (error) {
      throw toUiError(error) satisfies UiError;
    }
  },
  async switchService(patch) {
    if (get().switching) return false;
    set({ switching: true });
    try {
      // The core changes the sign-in's service only while signed out: the newer contract's scope is asked for at sign-in.
      if (!(await useAuth.getState().signOut(false))) return false;
      try {
        await get().save(patch);
      } catch (error) {
        // Signed out now, on the welcome screen: it shows this, and signing in carries on with the service as it was.
        useAuth.setState({ error: `The switch wasn’t saved, so nothing changed: ${toUiError(error).message} Sign in to carry on as before.` });
        return true;
      }
      // Resolves only when the browser flow ends; the welcome screen shows its progress and Cancel meanwhile.
      void useAuth.getState().signIn();
      return true;
    } finally {
      set({ switching: false });
    }
  },
}));
