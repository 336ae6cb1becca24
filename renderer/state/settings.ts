import { create } from 'zustand';
import type { Settings, SettingsChange } from '../../shared/ipc/views.ts';
import { invoke, toUiError, type UiError } from '../lib/core.ts';
import { useTheme } from './theme.ts';

interface SettingsStore {
  settings?: Settings;
  loading: boolean;
  error?: string;
  load(): Promise<void>;
  /** Resolves with the saved settings; rejects with the core's UiError (issues name fields). */
  save(patch: SettingsChange): Promise<Settings>;
}

export const useSettings = create<SettingsStore>()((set) => ({
  loading: false,
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
}));
