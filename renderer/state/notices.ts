import { create } from 'zustand';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';

export interface NewBreachNotice {
  ids: string[];
}

interface NoticesStore {
  newBreaches: string[];
  addNewBreaches(ids: string[]): void;
  /** Drops breaches that are gone from the person's data: a banner never points at one. */
  forgetGone(): Promise<void>;
  dismiss(): void;
}

/** Breaches announced by the core while the window was open, until the person looks or dismisses. */
export const useNotices = create<NoticesStore>()((set, get) => ({
  newBreaches: [],
  addNewBreaches(ids) {
    set({ newBreaches: [...new Set([...get().newBreaches, ...ids])] });
  },
  async forgetGone() {
    const gone: string[] = [];
    await Promise.all(
      get().newBreaches.map((id) =>
        invoke('breach-get', { id }).catch((error: unknown) => {
          if (toUiError(error).code === 'not-found') gone.push(id);
        }),
      ),
    );
    if (gone.length > 0) set({ newBreaches: get().newBreaches.filter((id) => !gone.includes(id)) });
  },
  dismiss() {
    set({ newBreaches: [] });
  },
}));

onAccountChange(() => useNotices.getState().dismiss());
