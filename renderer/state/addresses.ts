import { create } from 'zustand';
import { UNKNOWN_ADDRESSES, type AddressesView, type AddressRemoval } from '../../shared/ipc/addresses.ts';
import { isOlderView } from '../../shared/ipc/viewOrder.ts';
import { invoke, toUiError } from '../lib/core.ts';
import { onAccountChange } from '../lib/accountScope.ts';

interface AddressesStore {
  /** What the service last listed, kept by the core (shown offline too). */
  view: AddressesView;
  /** Why the core did not answer at all. */
  error?: string;
  /** Asks the core; `refresh` lists them at the service first. */
  load(refresh?: boolean): Promise<void>;
  apply(view: AddressesView): void;
  /** Each rejects with the core's UiError (issues name `email` or `code`). */
  add(email: string): Promise<void>;
  removal(email: string): Promise<AddressRemoval>;
  remove(email: string): Promise<void>;
  verify(email: string, code: string): Promise<void>;
  resend(email: string): Promise<void>;
}

export const useAddresses = create<AddressesStore>()((set, get) => {
  async function run(call: () => Promise<AddressesView>): Promise<void> {
    try {
      get().apply(await call());
    } catch (error) {
      throw toUiError(error);
    }
  }
  return {
    view: UNKNOWN_ADDRESSES,
    async load(refresh = false) {
      try {
        get().apply(await invoke('addresses-get', refresh ? { refresh } : {}));
        set({ error: undefined });
      } catch (error) {
        set({ error: toUiError(error).message });
      }
    },
    apply(view) {
      // An answer and an `addresses-changed` event cross: keep the later-computed one.
      if (!isOlderView(view, get().view)) set({ view });
    },
    add: (email) => run(() => invoke('addresses-add', { email })),
    async removal(email) {
      try {
        return await invoke('addresses-removal', { email });
      } catch (error) {
        throw toUiError(error);
      }
    },
    remove: (email) => run(() => invoke('addresses-remove', { email })),
    verify: (email, code) => run(() => invoke('addresses-verify', { email, code })),
    resend: (email) => run(() => invoke('addresses-resend', { email })),
  };
});

// One account's addresses are not the next one's.
onAccountChange(() => useAddresses.setState({ view: UNKNOWN_ADDRESSES, error: undefined }));
