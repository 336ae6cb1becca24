import { create } from 'zustand';

export interface NewBreachNotice {
  ids: string[];
}

interface NoticesStore {
  newBreaches: string[];
  addNewBreaches(ids: string[]): void;
  dismiss(): void;
}

/** Breaches announced by the core while the window was open, until the person looks or dismisses. */
export const useNotices = create<NoticesStore>()((set, get) => ({
  newBreaches: [],
  addNewBreaches(ids) {
    set({ newBreaches: [...new Set([...get().newBreaches, ...ids])] });
  },
  dismiss() {
    set({ newBreaches: [] });
  },
}));
