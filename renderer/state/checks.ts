import { create } from 'zustand';
import { UNKNOWN_CHECKS, type BreachSourceView, type ChecksView } from '../../shared/ipc/checks.ts';
import { isOlderView } from '../../shared/ipc/viewOrder.ts';
import { invoke, toUiError, type UiError } from '../lib/core.ts';
import { onAccountChange } from '../lib/accountScope.ts';

interface ChecksStore {
  /** What the service says about its source and each address; unknown until the core answers. */
  view: ChecksView;
  /** The person's breach-data choice and whether a key is kept (never the key). */
  source?: BreachSourceView;
  error?: string;
  load(): Promise<void>;
  apply(view: ChecksView): void;
  loadSource(): Promise<void>;
  /** Rejects with the core's UiError (issues name `apiKey`). */
  setSource(input: { choice: BreachSourceView['choice'] & string; apiKey?: string; forgetKey?: boolean; hibpUrl?: string | null }): Promise<BreachSourceView>;
}

export const useChecks = create<ChecksStore>()((set, get) => ({
  view: UNKNOWN_CHECKS,
  async load() {
    try {
      get().apply(await invoke('checks-get', {}));
      set({ error: undefined });
    } catch (error) {
      set({ error: toUiError(error).message });
    }
  },
  apply(view) {
    // An answer asked before a sync can arrive after that sync's event (they travel separately):
    // keep the newer, or the demo label and the checks would fall back to "unknown" until the next sync.
    if (!isOlderView(view, get().view)) set({ view });
  },
  async loadSource() {
    try {
      set({ source: await invoke('breach-source-get', {}) });
    } catch (error) {
      set({ error: toUiError(error).message });
    }
  },
  async setSource(input) {
    try {
      const source = await invoke('breach-source-set', input);
      set({ source });
      return source;
    } catch (error) {
      throw toUiError(error) satisfies UiError;
    }
  },
}));

export function isDemo(view: ChecksView): boolean {
  return view.source === 'demo';
}

// What the service knew of one account's addresses, or failed to say of them, is not the next
// account's. The breach-data choice (`source`) is an app setting and stays.
onAccountChange(() => useChecks.setState({ view: UNKNOWN_CHECKS, error: undefined }));
