import { create } from 'zustand';
import { invoke } from '../lib/core.ts';

interface BreachMediaStore {
  /** Logo per breach id: a `data:` URL, `null` when the core has none, absent while unknown. */
  logos: Record<string, string | null>;
  loadLogo(id: string): Promise<void>;
}

/**
 * What the details feed shows besides text: logos from the core's cache (never loaded from
 * another origin) and links out of the app.
 */
export const useBreachMedia = create<BreachMediaStore>()((set, get) => ({
  logos: {},
  async loadLogo(id) {
    if (typeof get().logos[id] === 'string') return; // none yet: asked again, the feed may have it now
    const answer = await invoke('breach-logo', { id }).catch(() => ({ dataUrl: undefined }));
    set((state) => ({ logos: { ...state.logos, [id]: answer.dataUrl ?? null } }));
  },
}));

/**
 * Opens a link of a breach description in the person's browser: through the core (the system
 * browser), or — in the browser host, which has none of its own — in a new tab of this browser.
 */
export async function openLink(url: string): Promise<void> {
  const answer = await invoke('open-link', { url }).catch(() => ({ openHere: false }));
  if (answer.openHere) window.open(url, '_blank', 'noopener,noreferrer');
}
