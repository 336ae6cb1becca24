import { promises as fs } from 'node:fs';
import { emitWhenChanged, nextViewSeq } from '../../../shared/ipc/viewOrder.ts';
import {
  CoreError,
  EMPTY_LOGINS,
  type DeleteExportResult,
  type Login,
  type LoginImportInput,
  type LoginImportProgress,
  type LoginImportResult,
  type LoginsView,
  type SiteBreachNotice,
} from '../../../shared/ipc/index.ts';
import type { SecretStore } from '../auth/secrets/SecretStore.ts';
import type { WritableDB } from '../db/Interface.ts';
import {
  addressBreachSites,
  forgetLogins,
  listLoginBreaches,
  listLoginImports,
  listLogins,
  recordLoginBreaches,
  recordPwnedCounts,
  resolveLogin,
  type StoredLogin,
  type StoredLoginBreach,
} from '../db/loginQueries.ts';
import { forgetPasswordHashKey, passwordHasher } from './LoginHashKey.ts';
import { PasswordCheck, type CheckPasswords } from './PasswordCheck.ts';
import { LoginImporter, type ReadExport } from './LoginImporter.ts';
import { changePasswordUrl, SiteBreachIndex, verdictOf, type CatalogBreach } from './siteBreaches.ts';

export type { ReadExport } from './LoginImporter.ts';

export interface LoginsOptions {
  /** The open account's database; undefined when nobody is signed in. */
  open(): { db: WritableDB; accountId: string } | undefined;
  /** The open account's secrets (session/AccountSecrets): where the hash key is kept. */
  secrets: SecretStore;
  /** The catalog's breaches that name a site (the details feed's), read at each match. */
  catalog(): Iterable<CatalogBreach>;
  reader: { read: ReadExport; maxBytes: number };
  /** The Pwned Passwords pass (its address from the settings at each call). */
  checkPasswords: CheckPasswords;
  /** `logins-changed`. */
  emit(view: LoginsView): void;
  /** `logins-import-progress`. */
  progress(progress: LoginImportProgress): void;
  /** New catalog breaches at the sites of the person's logins (NotifierPolicy.siteBreaches). */
  notify(breaches: SiteBreachNotice[]): void;
  /** What the log says when the Pwned Passwords pass fails (its sentence only). */
  warn?(message: string, details: Record<string, string>): void;
  now?: () => Date;
}

/**
 * The person's accounts at sites, read from a password manager's export (issue 38): import,
 * match the sites against the catalog, keep per login only the site, username, dates and a keyed
 * hash, then check the passwords against Pwned Passwords in the background, holding them in
 * memory only while it runs. Per account: everything reads and writes the open account's database.
 */
export class Logins {
  readonly #options: LoginsOptions;
  readonly #importer: LoginImporter;
  /** Paths imported in this run of the app, with the account that imported each: the only ones `deleteExport` deletes, for that account. */
  readonly #importedPaths = new Map<string, string>();
  readonly #check: PasswordCheck;
  #checkDb: WritableDB | undefined;
  readonly #emit: (view: LoginsView) => void;
  #lastCheck: { state: string; percent: number } | undefined;

  constructor(options: LoginsOptions) {
    this.#options = options;
    this.#emit = emitWhenChanged((view) => options.emit(view));
    this.#importer = new LoginImporter({ ...options.reader, progress: (progress) => options.progress(progress) });
    this.#check = new PasswordCheck({
      check: options.checkPasswords,
      record: (counts) => {
        // The database the pass was started for: a sign-out in between resets the pass first.
        if (this.#checkDb && this.#checkDb.open) recordPwnedCounts(this.#checkDb, counts);
      },
      changed: () => this.#checkMoved(),
      failed: (error) => this.#options.warn?.('logins: the Pwned Passwords check failed', { error: error instanceof CoreError ? error.message : (error as Error).name }),
    });
  }

  view(): LoginsView {
    const open = this.#options.open();
    if (!open) return { ...EMPTY_LOGINS, seq: nextViewSeq() };
    return { ...this.#read(open.db), seq: nextViewSeq() };
  }

  /** Emits `logins-changed` when what the view says changed (not only its number). */
  publish(): LoginsView {
    const view = this.view();
    this.#emit(view);
    return view;
  }

  async import(input: LoginImportInput): Promise<LoginImportResult> {
    const { db, accountId } = this.#require();
    const outcome = await this.#importer.run(input, {
      db,
      hasher: () => passwordHasher(this.#options.secrets),
      breaches: () => this.#index(db),
      stillOpen: () => this.#options.open()?.accountId === accountId,
      importedAt: () => this.#now(),
    });
    this.#importedPaths.set(input.path, accountId);
    const { passwords, passwordsNotCompared, ...counts } = outcome;
    const passwordsToCheck = passwords.size;
    this.#checkDb = db;
    this.#check.start(passwords);
    // The check holds its own copy while it runs; this one goes now.
    passwords.clear();
    const view = this.publish();
    return {
      importId: input.importId,
      ...counts,
      ...(passwordsNotCompared > 0 ? { passwordsNotCompared } : {}),
      reusedPasswords: view.summary.reusedPasswords,
      passwordsToCheck,
    };
  }

  /** Cancels an import; one already saved (or unknown) is left as it is. */
  cancelImport(importId: string): void {
    this.#importer.cancel(importId);
  }

  /** Stops the background Pwned Passwords check and drops the passwords it held. */
  cancelCheck(): LoginsView {
    this.#check.cancel();
    return this.publish();
  }

  resolve(id: string, resolved: boolean): LoginsView {
    const { db } = this.#require();
    const rowId = /^\d{1,15}$/.test(id) ? Number(id) : NaN;
    if (!Number.isSafeInteger(rowId) || !resolveLogin(db, rowId, resolved ? this.#now() : null)) {
      throw new CoreError('not-found', 'This login is no longer kept: it was forgotten, or belongs to another account.');
    }
    return this.publish();
  }

  /** Forgets every login of the account, and the key their hashes were made with. */
  async forget(): Promise<LoginsView> {
    const { db } = this.#require();
    this.#check.reset();
    forgetLogins(db);
    await forgetPasswordHashKey(this.#options.secrets);
    return this.publish();
  }

  /**
   * Deletes an export the person imported in this run of the app, and only that: a path not
   * imported here, a link or anything but a regular file is left alone, in words.
   */
  async deleteExport(path: string): Promise<DeleteExportResult> {
    if (this.#importedPaths.get(path) !== this.#options.open()?.accountId) {
      return { deleted: false, message: `${path} was not imported by this account since Breach Monitor started, so it is not deleted from here. Delete it yourself if you no longer need it.` };
    }
    let stat;
    try {
      stat = await fs.lstat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.#importedPaths.delete(path);
        return { deleted: false, message: `${path} is already gone.` };
      }
      return { deleted: false, message: `${path} could not be looked at (${(error as NodeJS.ErrnoException).code ?? 'error'}): it was not deleted.` };
    }
    if (!stat.isFile()) return { deleted: false, message: `${path} is no longer a regular file (a link or a folder is there now): it was not deleted.` };
    try {
      await fs.unlink(path);
    } catch (error) {
      return { deleted: false, message: `${path} could not be deleted (${(error as NodeJS.ErrnoException).code ?? 'error'}). Delete it yourself: it holds your passwords in clear.` };
    }
    this.#importedPaths.delete(path);
    return {
      deleted: true,
      message: `Deleted ${path}. Copies may remain elsewhere: in the trash, a backup, a synced folder or your downloads list. Look there too.`,
    };
  }

  /**
   * After a sync that can have brought new breaches (the catalog's or the account's own): each
   * breach now at a login's site that was not matched before is recorded; those the catalog
   * added after the last import are notified (older ones were there to be seen), and the view
   * is published.
   */
  catalogChanged(): void {
    const open = this.#options.open();
    if (!open) return;
    const logins = listLogins(open.db);
    if (logins.length === 0) return;
    const index = this.#index(open.db);
    const addedAfter = listLoginImports(open.db)[0]?.importedAt ?? '';
    const matches: (StoredLoginBreach & { site: string; notify: boolean })[] = [];
    for (const login of logins) {
      for (const breach of index.at(login.site)) {
        matches.push({ loginId: login.id, breachId: breach.breachId, title: breach.title, breachDate: breach.breachDate, site: login.site!, notify: (breach.addedDate ?? '') > addedAfter });
      }
    }
    const fresh = recordLoginBreaches(open.db, matches, this.#now());
    const notices = new Map<string, SiteBreachNotice>();
    for (const match of fresh as typeof matches) {
      if (match.notify) notices.set(match.breachId, { breachId: match.breachId, title: match.title, site: match.site, breachDate: match.breachDate });
    }
    if (notices.size > 0) this.#options.notify([...notices.values()]);
    if (fresh.length > 0) this.publish();
  }

  /** The account closed: its check stops (its passwords dropped) and the UI is told there is nothing to show. */
  accountClosed(): void {
    this.#importer.cancelAll();
    this.#check.reset();
    this.#checkDb = undefined;
    this.publish();
  }

  /** Resolves once the background check (if any) has ended. */
  checkSettled(): Promise<void> {
    return this.#check.settled();
  }

  #checkMoved(): void {
    const status = this.#check.status;
    // Progress is told by the percent, so a pass of thousands of prefixes is not thousands of views.
    const percent = status.total === 0 ? 0 : Math.floor((status.done * 100) / status.total);
    const same = status.state === 'running' && this.#lastCheck?.state === 'running' && this.#lastCheck.percent === percent;
    this.#lastCheck = { state: status.state, percent };
    if (same && status.done !== status.total) return;
    this.publish();
  }

  #index(db: WritableDB): SiteBreachIndex {
    const catalog = [...this.#options.catalog()];
    const known = new Set(catalog.map((breach) => breach.breachId));
    // The account's own breaches are in the catalog too, even before the details feed has them.
    const own = addressBreachSites(db)
      .filter((breach) => !known.has(breach.breachId))
      .map((breach) => ({ ...breach, title: breach.breachId }));
    return new SiteBreachIndex([...catalog, ...own]);
  }

  #read(db: WritableDB): Omit<LoginsView, 'seq'> {
    const stored = listLogins(db);
    const breachesOf = new Map<number, StoredLoginBreach[]>();
    for (const breach of listLoginBreaches(db)) {
      const list = breachesOf.get(breach.loginId);
      if (list) list.push(breach);
      else breachesOf.set(breach.loginId, [breach]);
    }
    const uses = new Map<string, number>();
    for (const login of stored) uses.set(login.passwordHash, (uses.get(login.passwordHash) ?? 0) + 1);
    const logins = stored.map((login) => this.#loginView(login, breachesOf.get(login.id) ?? [], uses.get(login.passwordHash)! - 1));
    const pwned = new Set(stored.filter((login) => (login.pwnedCount ?? 0) > 0).map((login) => login.passwordHash));
    return {
      imports: listLoginImports(db),
      logins,
      summary: {
        logins: logins.length,
        breachedSites: new Set(logins.filter((login) => login.resolvedAt === null && login.breaches.some((breach) => breach.verdict !== 'changed-since')).map((login) => login.site)).size,
        pwnedPasswords: pwned.size,
        reusedPasswords: [...uses.values()].filter((count) => count > 1).length,
      },
      passwordCheck: this.#check.status,
    };
  }

  #loginView(login: StoredLogin, breaches: readonly StoredLoginBreach[], reusedWith: number): Login {
    return {
      id: String(login.id),
      site: login.site,
      url: login.url,
      title: login.title,
      username: login.username,
      passwordChangedAt: login.passwordChangedAt,
      breaches: breaches.map((breach) => ({ breachId: breach.breachId, title: breach.title, breachDate: breach.breachDate, verdict: verdictOf(breach.breachDate, login.passwordChangedAt) })),
      pwned:
        login.pwnedCount === null
          ? { state: this.#check.holds(login.passwordHash) ? 'unchecked' : 'needs-import' }
          : login.pwnedCount > 0
            ? { state: 'found', count: login.pwnedCount }
            : { state: 'not-found' },
      reusedWith,
      changePasswordUrl: changePasswordUrl(login.site),
      resolvedAt: login.resolvedAt,
    };
  }

  #require(): { db: WritableDB; accountId: string } {
    const open = this.#options.open();
    if (!open) throw new CoreError('sign-in-required', 'Sign in to import and check your logins: they are kept for your account.');
    return open;
  }

  #now(): string {
    return (this.#options.now ?? (() => new Date()))().toISOString();
  }
}
