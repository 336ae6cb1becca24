import { create } from 'zustand';
import type { ChannelInput } from '../../shared/ipc/contract.ts';
import type { BreachDetail, CellState } from '../../shared/ipc/views.ts';
import { onAccountChange } from '../lib/accountScope.ts';
import { invoke, toUiError } from '../lib/core.ts';
import { useBreaches } from './breaches.ts';
import { beginOwnChange, endOwnChange } from './dataEvents.ts';

export type ResolutionChange = ChannelInput<'resolutions-set'>;

interface DetailStore {
  id?: string;
  detail?: BreachDetail;
  loading: boolean;
  error?: { code: string; message: string };
  /** The last failed action (resolve, retry, discard), in words. */
  actionError?: string;
  load(id: string): Promise<void>;
  reload(): Promise<void>;
  clear(): void;
  setResolved(change: ResolutionChange): Promise<void>;
  retry(): Promise<void>;
  discard(): Promise<void>;
}

let sequence = 0;
/** Counts toggles: only the latest one's reply may replace what the screen shows. */
let toggles = 0;

/** The change as the person will see it once the core has queued it. */
export function applyOptimistic(detail: BreachDetail, change: ResolutionChange): BreachDetail {
  const emails = change.emails ? new Set(change.emails) : undefined;
  const classes = new Set(change.dataClasses);
  return {
    ...detail,
    accounts: detail.accounts.map((account) => {
      if (emails && !emails.has(account.email)) return account;
      const cells: Record<string, CellState> = { ...account.cells };
      for (const [name, cell] of Object.entries(cells)) {
        if (!classes.has(name) || cell.resolved === change.resolved) continue;
        cells[name] = { resolved: change.resolved, pending: true };
      }
      return { ...account, cells };
    }),
  };
}

export const useDetail = create<DetailStore>()((set, get) => ({
  loading: false,
  async load(id) {
    const mine = ++sequence;
    const keep = get().id === id;
    set({ id, loading: true, error: undefined, ...(keep ? {} : { detail: undefined, actionError: undefined }) });
    try {
      const detail = await invoke('breach-get', { id });
      if (mine === sequence) set({ detail, loading: false });
    } catch (error) {
      const uiError = toUiError(error);
      if (mine === sequence) set({ error: { code: uiError.code, message: uiError.message }, loading: false, detail: undefined });
    }
  },
  async reload() {
    const { id } = get();
    if (id) await get().load(id);
  },
  clear() {
    sequence++;
    set({ id: undefined, detail: undefined, loading: false, error: undefined, actionError: undefined });
  },
  async setResolved(change) {
    const { detail } = get();
    // A load still in flight was asked before this change: its answer must not undo it on screen.
    sequence++;
    const mine = ++toggles;
    if (detail && detail.breach.id === change.breachId) set({ detail: applyOptimistic(detail, change), loading: false });
    set({ actionError: undefined });
    // The reply is the breach as it now shows: no second round trip for it, and the event of
    // this change is this window's own (dataEvents skips it). The list's counts moved too.
    beginOwnChange();
    let revision: number | undefined;
    try {
      const reply = await invoke('resolutions-set', change);
      revision = reply.revision;
      if (mine === toggles && get().id === change.breachId) {
        sequence++;
        set({ detail: reply.detail, loading: false });
      }
    } catch (error) {
      set({ actionError: toUiError(error).message });
      // Undo the optimistic marks: ask what the core actually holds.
      await get().reload();
    } finally {
      endOwnChange(revision);
    }
    await useBreaches.getState().reload();
  },
  async retry() {
    await outboxAction('outbox-retry');
  },
  async discard() {
    await outboxAction('outbox-discard');
  },
}));

onAccountChange(() => {
  toggles++;
  useDetail.getState().clear();
});

async function outboxAction(channel: 'outbox-retry' | 'outbox-discard'): Promise<void> {
  const { id } = useDetail.getState();
  if (!id) return;
  useDetail.setState({ actionError: undefined });
  try {
    // What moved comes back as one `data-changed` naming this breach (dataEvents re-asks it).
    await invoke(channel, { breachId: id });
  } catch (error) {
    useDetail.setState({ actionError: toUiError(error).message });
  }
}
