import type { Breach } from '../../shared/api/index.ts';

/** What the identity side knows of a subject: its monitored emails, and whether the account is gone. */
export interface Account {
  sub: string;
  emails: string[];
  deleted: boolean;
}

/** A resolved (email, data class, breach). `dataClass` is the breach's own spelling. */
export interface ResolutionRow {
  email: string;
  breachId: string;
  dataClass: string;
  resolvedAt: string;
}

/** One target of a resolutions request, already validated and expanded by the service. */
export interface ResolutionChange {
  email: string;
  breachId: string;
  /** The breach's own spelling of the data class. */
  dataClass: string;
  resolved: boolean;
}

/**
 * Storage of the reference service. Synchronous (better-sqlite3); every method that writes
 * does so in one transaction. Emails are stored and compared in lower case (see `emailKey`).
 */
export interface BreachStore {
  // Catalog
  listBreaches(): Breach[];
  getBreach(id: string): Breach | undefined;
  /** Adds or replaces one catalog breach. */
  putBreach(breach: Breach): void;
  /** Replaces the whole catalog in one transaction (resolutions and exposures are kept). */
  replaceCatalog(breaches: readonly Breach[]): void;
  catalogSize(): number;

  // Account side (what the identity provider knows)
  getAccount(sub: string): Account | undefined;
  putAccount(account: Account): void;

  // Monitoring users
  hasUser(sub: string): boolean;
  /** Creates the monitoring user; returns false when it already existed. */
  createUser(sub: string): boolean;

  // Exposures: which breaches affect an email
  /**
   * Breach ids per email (ordered by id), for the emails that have an exposure record (others
   * are absent; an email found in no breach maps to `[]`). Keys are in `emailKey` form.
   */
  getExposures(emails: readonly string[]): Map<string, string[]>;
  setExposures(email: string, breachIds: readonly string[]): void;

  // Resolutions
  getResolutions(emails: readonly string[]): ResolutionRow[];
  /**
   * Applies every change or none. A change to `resolved: true` keeps an existing `resolvedAt`;
   * a change to `resolved: false` deletes the row. A change naming a breach the catalog lacks,
   * or a data class that breach lacks, throws (`ResolutionChangeError`) and nothing is applied.
   */
  applyResolutionChanges(changes: readonly ResolutionChange[], now: string): void;

  /** Increases on every write; lets callers cache derived answers. */
  revision(): number;
  /**
   * Changes whenever the catalog, or the exposures or resolutions of one of `emails`, change:
   * an answer built from those stays valid while the stamp is the same. Writes about other
   * emails leave it as it is.
   */
  changeStamp(emails: readonly string[]): string;
  close(): void;
}
