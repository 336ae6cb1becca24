/**
 * The core's logins feature (issue 38) over memory, for the renderer's tests: export files this
 * fake "has on disk" by path, an import that reports its phases as progress events and can be
 * cancelled between them (nothing of it kept), sites matched to the fake's breaches with
 * Watchtower's rule, reuse found by a keyed fingerprint, and the Pwned Passwords check as a
 * background pass the test moves on step by step (or holds "waiting for the network"). As the
 * core, it never lets a password reach the page: the views carry sites, usernames and findings.
 */
import type { ChannelArgs, ChannelResult } from '../../shared/ipc/contract.ts';
import type { EventName, EventPayload } from '../../shared/ipc/events.ts';
import type { IpcError } from '../../shared/ipc/protocol.ts';
import {
  EMPTY_LOGINS,
  LOGIN_EXPORT_FORMAT_NAMES,
  type Login,
  type LoginExportFormat,
  type LoginImportResult,
  type LoginsView,
  type PasswordCheckStatus,
  type SiteBreach,
} from '../../shared/ipc/logins.ts';
import type { Breach } from '../../shared/api/breach.ts';

/** A row of an export as the core's parser would hand it over, or one it skips (and why). */
export type FakeExportRow = { url: string; username: string; password: string; passwordChangedAt?: string } | { skip: string };

/** An export file at a path: one the core recognises, or a file of another shape. */
export type FakeExportFile = { format: LoginExportFormat; rows: FakeExportRow[] } | { unknown: true };

interface Kept {
  login: Omit<Login, 'breaches' | 'reusedWith' | 'pwned' | 'changePasswordUrl'>;
  format: LoginExportFormat;
  /** A keyed fingerprint of the password (the core's keyed hash): never the password. */
  fingerprint: string;
  /** Which key made it (the core's key mark). */
  keyMark: number;
}

/** FNV-1a over the key and the password: the fake's keyed hash (only its equality matters here). */
function fingerprintOf(password: string, keyMark: number): string {
  let hash = 0x811c9dc5;
  for (const char of `fake-keychain-key-${keyMark}\0${password}`) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16);
}

/** The registrable domain, as the public suffix list would give it for the fake's simple sites. */
function siteOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase();
    const labels = host.split('.');
    return labels.length >= 2 ? labels.slice(-2).join('.') : null;
  } catch {
    return null;
  }
}

function ipcError(code: IpcError['code'], message: string, issues?: IpcError['issues']): IpcError {
  return issues ? { code, message, issues } : { code, message };
}

export interface FakeLoginsHost {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  now(): Date;
  breaches(): Breach[];
}

export class FakeLogins {
  /** Export files by path, as on this computer's disk. */
  readonly files = new Map<string, FakeExportFile>();
  /** Pwned Passwords' stand-in: a password's count of sightings (absent: not found). */
  readonly pwnedCounts = new Map<string, number>();
  /** When set, each import waits here after its first progress event (to see progress, or cancel). */
  importGate: Promise<void> | undefined;
  /** When set, the password check waits for the network and says this. */
  offlineMessage: string | undefined;
  readonly #kept = new Map<string, Kept>();
  /** A fingerprint's count once checked (0: not found). */
  readonly #pwned = new Map<string, number>();
  /** Passwords waiting for the check, held in memory only while it runs (as the core does). */
  #toCheck: { fingerprint: string; password: string }[] = [];
  #check: PasswordCheckStatus = EMPTY_LOGINS.passwordCheck;
  #imports: LoginsView['imports'] = [];
  readonly #cancelled = new Set<string>();
  #nextId = 1;
  #seq = 0;
  #keyMark = 1;
  readonly #host: FakeLoginsHost;

  constructor(host: FakeLoginsHost) {
    this.#host = host;
  }

  view(): LoginsView {
    const logins = [...this.#kept.values()].map((kept) => this.#loginOf(kept));
    const byFingerprint = new Map<string, Login[]>();
    for (const kept of this.#kept.values()) byFingerprint.set(kept.fingerprint, [...(byFingerprint.get(kept.fingerprint) ?? []), this.#loginOf(kept)]);
    const open = logins.filter((login) => login.resolvedAt === null);
    const openFingerprints = new Set([...this.#kept.values()].filter((kept) => kept.login.resolvedAt === null).map((kept) => kept.fingerprint));
    return {
      imports: this.#imports,
      logins,
      summary: {
        logins: logins.length,
        breachedSites: new Set(open.filter((login) => login.breaches.some((breach) => breach.verdict !== 'changed-since')).map((login) => login.site)).size,
        pwnedPasswords: [...openFingerprints].filter((fingerprint) => (this.#pwned.get(fingerprint) ?? 0) > 0).length,
        reusedPasswords: [...byFingerprint.entries()].filter(([fingerprint, group]) => openFingerprints.has(fingerprint) && group.length > 1).length,
      },
      passwordCheck: this.#check,
      seq: ++this.#seq,
    };
  }

  #loginOf(kept: Kept): Login {
    const { login } = kept;
    const reusedWith = [...this.#kept.values()].filter((other) => other !== kept && other.fingerprint === kept.fingerprint).length;
    const count = this.#pwned.get(kept.fingerprint);
    return {
      ...login,
      breaches: login.site ? this.#breachesAt(login.site, login.passwordChangedAt) : [],
      reusedWith,
      pwned: count === undefined ? { state: 'unchecked' } : count > 0 ? { state: 'found', count } : { state: 'not-found' },
      changePasswordUrl: login.site ? `https://${login.site}/.well-known/change-password` : null,
    };
  }

  /** Watchtower's rule: a breach after the password's last change means change it; before it, likely fine; no date, unknown. */
  #breachesAt(site: string, changedAt: string | null): SiteBreach[] {
    return this.#host
      .breaches()
      .filter((breach) => breach.domain === site)
      .map((breach) => ({
        breachId: breach.id,
        title: breach.id,
        breachDate: breach.breachDate,
        verdict: changedAt === null ? 'unknown-date' : changedAt.slice(0, 10) > breach.breachDate ? 'changed-since' : 'change',
      }));
  }

  #changed(): LoginsView {
    const view = this.view();
    this.#host.emit('logins-changed', view);
    return view;
  }

  /** The hash key is lost (its keychain entry deleted): kept logins can no longer be compared with a new export's passwords. */
  loseKey(): void {
    this.#keyMark++;
  }

  async import({ importId, path }: ChannelArgs<'logins-import'>): Promise<ChannelResult<'logins-import'>> {
    const file = this.files.get(path);
    if (!file) throw ipcError('not-found', `There is no file at ${path}.`, [{ path: 'path', message: 'names no file on this computer' }]);
    if ('unknown' in file) throw ipcError('invalid-arguments', `This file is not an export Breach Monitor knows. It reads ${Object.values(LOGIN_EXPORT_FORMAT_NAMES).join(', ')}.`);
    const total = file.rows.length;
    const emit = (phase: 'reading' | 'matching' | 'saving', done: number) => this.#host.emit('logins-import-progress', { importId, phase, done, total });
    const stopIfCancelled = () => {
      if (this.#cancelled.delete(importId)) throw ipcError('cancelled', 'The import was cancelled: nothing was kept.');
    };
    emit('reading', 0);
    if (this.importGate) await this.importGate;
    stopIfCancelled();
    emit('reading', total);
    emit('matching', total);
    stopIfCancelled();
    // Read and matched; nothing is kept until this one step, so a cancel before it leaves nothing.
    const skippedRows: LoginImportResult['skippedRows'] = [];
    const read: { kept: Omit<Kept, 'login'> & { login: Omit<Kept['login'], 'id'> }; password: string }[] = []; // passwords in memory until the check takes them
    file.rows.forEach((row, index) => {
      if ('skip' in row) {
        if (skippedRows.length < 50) skippedRows.push({ row: index + 2, reason: `row ${index + 2}: ${row.skip}` });
        return;
      }
      const site = siteOf(row.url);
      read.push({
        kept: {
          format: file.format,
          fingerprint: fingerprintOf(row.password, this.#keyMark),
          keyMark: this.#keyMark,
          login: { site, url: row.url, title: null, username: row.username, passwordChangedAt: row.passwordChangedAt ?? null, resolvedAt: null },
        },
        password: row.password,
      });
    });
    emit('saving', total);
    let unchanged = 0;
    let passwordsChanged = 0;
    let passwordsNotCompared = 0;
    for (const { kept } of read) {
      const same = [...this.#kept.values()].find((other) => other.login.site === kept.login.site && other.login.username === kept.login.username); // whatever the format, as the core
      if (same && same.keyMark !== kept.keyMark) {
        // Made under a key lost since: nothing to compare with, so nothing is resolved.
        passwordsNotCompared++;
        same.fingerprint = kept.fingerprint;
        same.keyMark = kept.keyMark;
      } else if (same && same.fingerprint === kept.fingerprint) unchanged++;
      else if (same) {
        passwordsChanged++;
        same.fingerprint = kept.fingerprint;
        same.login = { ...same.login, passwordChangedAt: kept.login.passwordChangedAt, resolvedAt: this.#host.now().toISOString() };
      } else {
        const id = `login-${this.#nextId++}`;
        this.#kept.set(id, { ...kept, login: { ...kept.login, id } });
      }
    }
    this.#imports = [{ format: file.format, importedAt: this.#host.now().toISOString(), logins: read.length, skipped: file.rows.length - read.length }, ...this.#imports];
    const distinct = new Map(read.map(({ kept, password }) => [kept.fingerprint, password]));
    this.#toCheck = [...distinct].filter(([fingerprint]) => !this.#pwned.has(fingerprint)).map(([fingerprint, password]) => ({ fingerprint, password }));
    this.#check = this.#toCheck.length > 0 ? this.#checkStatus('running', 0, this.#toCheck.length) : this.#check;
    const view = this.#changed();
    // As the core counts them: a breached site where no password there predates its breaches.
    const imported = view.logins.filter((login) => read.some(({ kept }) => kept.login.site === login.site && kept.login.username === login.username));
    const breachedSites = new Set(imported.filter((login) => login.site !== null && login.breaches.length > 0).map((login) => login.site));
    const toChange = new Set(imported.filter((login) => login.breaches.some((breach) => breach.verdict !== 'changed-since')).map((login) => login.site));
    return {
      importId,
      format: file.format,
      imported: read.length,
      unchanged,
      passwordsChanged,
      ...(passwordsNotCompared > 0 ? { passwordsNotCompared } : {}),
      skipped: file.rows.length - read.length,
      skippedRows,
      breachedSites: view.summary.breachedSites,
      breachedSitesChangedSince: [...breachedSites].filter((site) => !toChange.has(site)).length,
      reusedPasswords: view.summary.reusedPasswords,
      passwordsToCheck: this.#toCheck.length,
    };
  }

  #checkStatus(state: PasswordCheckStatus['state'], done: number, total: number): PasswordCheckStatus {
    if (state === 'running' && this.offlineMessage !== undefined) return { state: 'waiting-for-network', done, total, message: this.offlineMessage };
    return { state, done, total, message: null };
  }

  /** The background check moves on by `count` passwords (all that are left by default); each step is a `logins-changed`. */
  advanceCheck(count = Infinity): void {
    if (this.#check.state !== 'running' && this.#check.state !== 'waiting-for-network') return;
    if (this.offlineMessage !== undefined) {
      this.#check = this.#checkStatus('running', this.#check.done, this.#check.total);
      this.#changed();
      return;
    }
    const batch = this.#toCheck.splice(0, count);
    for (const { fingerprint, password } of batch) this.#pwned.set(fingerprint, this.pwnedCounts.get(password) ?? 0);
    const done = this.#check.done + batch.length;
    this.#check = this.#checkStatus(this.#toCheck.length === 0 ? 'done' : 'running', done, this.#check.total);
    this.#changed();
  }

  cancelImport({ importId }: ChannelArgs<'logins-import-cancel'>): ChannelResult<'logins-import-cancel'> {
    this.#cancelled.add(importId);
    return {};
  }

  cancelCheck(): LoginsView {
    if (this.#check.state === 'running' || this.#check.state === 'waiting-for-network') {
      // The passwords it held are dropped at once.
      this.#toCheck = [];
      this.#check = { state: 'cancelled', done: this.#check.done, total: this.#check.total, message: null };
    }
    return this.#changed();
  }

  resolve({ id, resolved }: ChannelArgs<'logins-resolve'>): LoginsView {
    const kept = this.#kept.get(id);
    if (!kept) throw ipcError('not-found', 'This login is no longer on this computer.');
    kept.login = { ...kept.login, resolvedAt: resolved ? this.#host.now().toISOString() : null };
    return this.#changed();
  }

  forget(): LoginsView {
    this.#kept.clear();
    this.#pwned.clear();
    this.#toCheck = [];
    this.#imports = [];
    this.#check = EMPTY_LOGINS.passwordCheck;
    return this.#changed();
  }

  deleteExport({ path }: ChannelArgs<'logins-delete-export'>): ChannelResult<'logins-delete-export'> {
    if (!this.files.delete(path)) return { deleted: false, message: `There is no file at ${path} any more: nothing was deleted.` };
    return { deleted: true, message: null };
  }
}
