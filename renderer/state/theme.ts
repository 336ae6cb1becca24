import { create } from 'zustand';
import type { Settings } from '../../shared/ipc/views.ts';

export type Theme = Settings['theme'];
const STORAGE_KEY = 'monitor-theme';

function stored(): Theme {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

/** `system` leaves the choice to `prefers-color-scheme` in the style sheet. */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

interface ThemeStore {
  theme: Theme;
  set(theme: Theme): void;
}

/**
 * The theme is a setting of the core, but the window also remembers it locally so the first
 * frame, drawn before the core answers, is already in the right colours.
 */
export const useTheme = create<ThemeStore>()((set) => ({
  theme: stored(),
  set(theme) {
    applyTheme(theme);
    try {
      localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      // Storage may be unavailable; the setting itself lives in the core.
    }
    set({ theme });
  },
}));
