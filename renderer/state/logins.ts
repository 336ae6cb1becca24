import { create } from 'zustand';
import type { ChannelResult } from '../../shared/ipc/contract.ts';
import { EMPTY_LOGINS, type LoginImportProgress, type LoginImportResult, type LoginsView } from '../../shared/ipc/logins.ts';
import { isOlderView } from '../../shared/ipc/viewOrder.ts';
import { invoke, toUiError } from '../lib/core.ts';
import { onAccountChange } from '../lib/accountScope.ts';

/** The import running now: the id this window chose (so it can cancel it and pick out its progress) and where it stands. */
export interface RunningImport {
  importId: string;
  path: string;
  progress: LoginImportProgress | undefined;
  cancelling: boolean;
}

/** How the last import this window started ended. */
export type ImportOutcome = { kind: 'done'; path: string; result: LoginImportResult } | { kind: 'cancelled'; message: string } | { kind: 'failed'; message: string; field: string | undefined };

interface LoginsStore {
  /** The logins and their findings as the core last computed them; empty until it answers. */
  view: LoginsView;
  /** Whether the core has answered once (the empty state is shown only then). */
  loaded: boolean;
  /** Why the core did not answer at all. */
  error?: string;
  running?: RunningImport;
  outcome?: ImportOutcome;
  load(): Promise<void>;
  apply(view: LoginsView): void;
  progress(progress: LoginImportProgress): void;
  /** Asks the core to read the export at `path`; the outcome lands in `outcome` (never throws). */
  importFrom(path: string): Promise<void>;
  cancelImport(): Promise<void>;
  /** Each rejects with the core's UiError. */
  cancelCheck(): Promise<void>;
  resolve(id: string, resolved: boolean): Promise<void>;
  forget(): Promise<void>;
  deleteExport(path: string): Promise<ChannelResult<'logins-delete-export'>>;
  dismissOutcome(): void;
}

/** An id for one import, chosen here so the page can cancel it before the core answers (LoginImportId: 8–64 of [A-Za-z0-9_-]). */
function newImportId(): string {
  return crypto.randomUUID();
}

export const useLogins = create<LoginsStore>()((set, get) => {
  async function run(call: () => Promise<LoginsView>): Promise<void> {
    try {
      get().apply(await call());
    } catch (error) {
      throw toUiError(error);
    }
  }
  return {
    view: EMPTY_LOGINS,
    loaded: false,
    async load() {
      try {
        get().apply(await invoke('logins-get', {}));
        set({ error: undefined });
      } catch (error) {
        set({ error: toUiError(error).message });
      }
    },
    apply(view) {
      // An answer and a `logins-changed` event cross (the check moves on while an answer travels): keep the later-computed one.
      if (!isOlderView(view, get().view)) set({ view, loaded: true });
    },
    progress(progress) {
      const running = get().running;
      // Another window's import, or one this window has already finished with.
      if (!running || running.importId !== progress.importId) return;
      set({ running: { ...running, progress } });
    },
    async importFrom(path) {
      if (get().running) return;
      const importId = newImportId();
      set({ running: { importId, path, progress: undefined, cancelling: false }, outcome: undefined });
      try {
        const result = await invoke('logins-import', { importId, path });
        set({ outcome: { kind: 'done', path, result } });
        // The import's own `logins-changed` may have been missed (a reconnect): the view is asked for once more.
        void get().load();
      } catch (error) {
        const failure = toUiError(error);
        set({
          outcome:
            failure.code === 'cancelled'
              ? { kind: 'cancelled', message: failure.message }
              : { kind: 'failed', message: failure.message, field: failure.issues?.find((issue) => issue.path === 'path')?.message },
        });
      } finally {
        if (get().running?.importId === importId) set({ running: undefined });
      }
    },
    async cancelImport() {
      const running = get().running;
      if (!running || running.cancelling) return;
      set({ running: { ...running, cancelling: true } });
      try {
        await invoke('logins-import-cancel', { importId: running.importId });
      } catch (error) {
        // The import may have ended meanwhile; only a refusal while it still runs is news.
        if (get().running?.importId === running.importId) set({ running: { ...running, cancelling: false }, error: toUiError(error).message });
      }
    },
    cancelCheck: () => run(() => invoke('logins-check-cancel', {})),
    resolve: (id, resolved) => run(() => invoke('logins-resolve', { id, resolved })),
    async forget() {
      await run(() => invoke('logins-forget', {}));
      set({ outcome: undefined });
    },
    async deleteExport(path) {
      try {
        return await invoke('logins-delete-export', { path });
      } catch (error) {
        throw toUiError(error);
      }
    },
    dismissOutcome: () => set({ outcome: undefined }),
  };
});

// One account's logins are not the next one's.
onAccountChange(() => useLogins.setState({ view: EMPTY_LOGINS, loaded: false, error: undefined, running: undefined, outcome: undefined }));
