import { CoreError, type LoginExportFormat, type LoginImportInput, type LoginImportProgress, type SkippedRow } from '../../../shared/ipc/index.ts';
import type { WritableDB } from '../db/Interface.ts';
import { lastKeyCheck, listLogins, saveImport } from '../db/loginQueries.ts';
import type { PasswordHasher } from './LoginHashKey.ts';
import { planImport, type ExportedLoginLike } from './planImport.ts';
import { readExportFile } from './readExportFile.ts';
import type { SiteBreachIndex } from './siteBreaches.ts';

/** An export reader (exports/readLoginExport.ts): recognises the format from the bytes, skips and counts malformed rows. */
export type ReadExport = (
  bytes: Uint8Array,
  options?: { signal?: AbortSignal; onProgress?: (done: number, total: number | null) => void },
) => Promise<{ format: LoginExportFormat; logins: ExportedLoginLike[]; skipped: number; skippedRows: SkippedRow[] }>;

export interface ImportTarget {
  db: WritableDB;
  /** The passwords' keyed hash (made, the first time, with a key kept in the secret store). */
  hasher(): Promise<PasswordHasher>;
  /** The catalog's breaches by site, read when matching starts. */
  breaches(): SiteBreachIndex;
  /** False once the account the import was started for is no longer the open one. */
  stillOpen(): boolean;
  importedAt(): string;
}

/** What a saved import did, and the distinct passwords it read (by keyed hash), for the check in memory. */
export interface ImportOutcome {
  format: LoginExportFormat;
  imported: number;
  unchanged: number;
  passwordsChanged: number;
  /** Logins already kept whose hashes were made under a key since lost: whether their password changed cannot be told. */
  passwordsNotCompared: number;
  skipped: number;
  skippedRows: SkippedRow[];
  breachedSites: number;
  breachedSitesChangedSince: number;
  passwords: Map<string, string>;
}

const CANCELLED = 'The import was cancelled: nothing was kept.';

/**
 * The import job: reads the export at a path (a regular file, at most `maxBytes`), recognises and
 * parses it, matches its sites and plans against what is kept, then writes everything in one
 * transaction at the end. Progress goes out by import id (`reading`, `matching`, `saving`); a
 * cancel, heard between any two steps and every few hundred rows, rejects with CoreError
 * 'cancelled' and leaves nothing written.
 */
export class LoginImporter {
  readonly #read: ReadExport;
  readonly #maxBytes: number;
  readonly #progress: (progress: LoginImportProgress) => void;
  readonly #running = new Map<string, AbortController>();

  constructor(options: { read: ReadExport; maxBytes: number; progress(progress: LoginImportProgress): void }) {
    this.#read = options.read;
    this.#maxBytes = options.maxBytes;
    this.#progress = options.progress;
  }

  async run({ importId, path }: LoginImportInput, target: ImportTarget): Promise<ImportOutcome> {
    if (this.#running.has(importId)) throw new CoreError('conflict', 'An import with this id is already running.');
    const controller = new AbortController();
    this.#running.set(importId, controller);
    const { signal } = controller;
    const checkpoint = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) throw new CoreError('cancelled', CANCELLED);
    };
    try {
      this.#progress({ importId, phase: 'reading', done: 0, total: null });
      const bytes = await readExportFile(path, this.#maxBytes, signal);
      const parsed = await this.#read(bytes, { signal, onProgress: (done, total) => this.#progress({ importId, phase: 'reading', done, total }) });
      await checkpoint();
      const total = parsed.logins.length;
      let reported = 0;
      const hash = await target.hasher();
      const lastMark = lastKeyCheck(target.db);
      const plan = await planImport(parsed.logins, {
        format: parsed.format,
        skipped: parsed.skipped,
        importedAt: target.importedAt(),
        hash,
        kept: listLogins(target.db),
        comparable: lastMark === undefined || lastMark === hash.keyCheck,
        breaches: target.breaches(),
        checkpoint,
        onProgress: (done) => {
          // At most about a hundred events for any size of file.
          if (done === total || done - reported >= Math.max(1, Math.floor(total / 100))) {
            reported = done;
            this.#progress({ importId, phase: 'matching', done, total });
          }
        },
      });
      await checkpoint();
      // Signed out (or another account opened) meanwhile: nothing goes into a database no longer shown.
      if (!target.stillOpen()) throw new CoreError('cancelled', 'You signed out during the import: nothing was kept.');
      this.#progress({ importId, phase: 'saving', done: 0, total: 1 });
      saveImport(target.db, plan.write);
      this.#progress({ importId, phase: 'saving', done: 1, total: 1 });
      return {
        format: parsed.format,
        imported: plan.write.added.length + plan.write.unchanged.length + plan.write.changed.length + plan.write.rehashed.length,
        unchanged: plan.write.unchanged.length,
        passwordsChanged: plan.write.changed.length,
        passwordsNotCompared: plan.write.rehashed.length,
        skipped: parsed.skipped,
        skippedRows: parsed.skippedRows.slice(0, 50),
        breachedSites: plan.breachedSites,
        breachedSitesChangedSince: plan.breachedSitesChangedSince,
        passwords: plan.passwords,
      };
    } catch (error) {
      if (signal.aborted) throw new CoreError('cancelled', CANCELLED);
      throw error;
    } finally {
      this.#running.delete(importId);
    }
  }

  /** Cancels an import; one already saved (or unknown) is left as it is. */
  cancel(importId: string): void {
    this.#running.get(importId)?.abort();
  }

  cancelAll(): void {
    for (const controller of this.#running.values()) controller.abort();
  }
}
