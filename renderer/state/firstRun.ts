import { create } from 'zustand';

/** Kept for this window's session, so a reload in the middle of the first run comes back to its step. */
const KEY = 'breach-monitor.first-run.addresses';

function stored(): boolean {
  try {
    return globalThis.sessionStorage?.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

interface FirstRunStore {
  /** The first run goes on, after sign-in, with "Your addresses" (a person with their own key monitors no address yet). */
  addressesStep: boolean;
  setAddressesStep(on: boolean): void;
}

export const useFirstRun = create<FirstRunStore>()((set) => ({
  addressesStep: stored(),
  setAddressesStep(on) {
    try {
      if (on) globalThis.sessionStorage?.setItem(KEY, '1');
      else globalThis.sessionStorage?.removeItem(KEY);
    } catch {
      // No storage (a locked-down browser): the step still holds for this page.
    }
    set({ addressesStep: on });
  },
}));
