import { emailKey, type Breach, type CatalogChange, type CatalogOrigin } from '../../shared/api/index.ts';

/** What the identity side knows of a subject: its monitored emails, and whether the account is gone. */
export interface Account {
  sub: string;
  emails: string[];
  deleted: boolean;
}

/** How an address the person added was proven theirs (the others are vouched for elsewhere). */
export type AddedEmailProof = 'code' | 'operator';

/** One address a person added (`POST /user/emails`). Times are milliseconds since the epoch. */
export interface PersonEmailRow {
  email: string;
  addedAt: number;
  verifiedAt: number | null;
  verifiedBy: AddedEmailProof | null;
  /** The last code sent, hashed (server/api/verificationCodes.ts); null when none is waiting. */
  codeHash: string | null;
  codeExpiresAt: number | null;
  /** Entries of the last code so far, wrong or right. */
  codeAttempts: number;
}

/** A code about to be sent, with the limits its send must stay within (one transaction). */
export interface CodeSend {
  codeHash: string;
  expiresAt: number;
  at: number;
  /** Sends at or after this count against the limits. */
  since: number;
  perAddress: number;
  perPerson: number;
}

export type CodeSendResult = 'recorded' | 'address-limit' | 'person-limit' | 'missing' | 'verified';

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

/** Which catalog is loaded (`file` names the `--catalog` file). */
export interface LoadedCatalog {
  origin: CatalogOrigin;
  file: string | null;
}

/** A breach that left the catalog: its last known fields, and when it left. */
export interface RemovedBreach {
  breach: Breach;
  removedAt: string;
}

/** What a catalog replacement is: where the new catalog comes from, and when. */
export interface CatalogReplacement extends LoadedCatalog {
  at: string;
}

/**
 * A catalog's log of its recent writes, so readers of the catalog (the search index, the graph)
 * update what a write changed instead of reading everything again. SQLite's store keeps it in
 * memory and answers at once; a store shared by instances answers from the database.
 */
export interface CatalogLog {
  /**
   * Ids of the breaches written since catalog revision `revision`, oldest first (repeats kept),
   * or undefined when that is not known (a whole-catalog replacement, a write the log does not
   * name, or too long ago): then read everything.
   */
  catalogChangesSince(revision: number): readonly string[] | undefined | Promise<readonly string[] | undefined>;
  getBreach(id: string): Breach | undefined | Promise<Breach | undefined>;
}

/**
 * The SQLite store's synchronous form (better-sqlite3); every method that writes does so in one
 * transaction. Emails are stored and compared in lower case (see `emailKey`). The service
 * uses it through {@link asyncBreachStore}.
 */
export interface SyncBreachStore {
  // Catalog
  listBreaches(): Breach[];
  getBreach(id: string): Breach | undefined;
  /** Adds or replaces one catalog breach. */
  putBreach(breach: Breach): void;
  /** Adds or replaces several catalog breaches in one transaction (a bulk load: others are kept). */
  putBreaches(breaches: readonly Breach[]): void;
  /**
   * Replaces the whole catalog in one transaction. Exposures and resolutions are kept; a breach
   * that leaves keeps its last known fields in {@link removedBreaches}, and every address exposed
   * to it gets a {@link CatalogChange}. Without `replacement` the loaded catalog's origin stays.
   */
  replaceCatalog(breaches: readonly Breach[], replacement?: CatalogReplacement): void;
  /** Which catalog is loaded; undefined before any was recorded (a store from before this was kept). */
  loadedCatalog(): LoadedCatalog | undefined;
  /** Breaches that left the catalog (and have not come back), by id. */
  removedBreaches(): Map<string, RemovedBreach>;
  catalogSize(): number;
  /** Increases on every catalog write (and only then); lets readers such as the search index rebuild only when it changed. */
  catalogRevision(): number;

  // Account side (what the identity provider knows)
  getAccount(sub: string): Account | undefined;
  /**
   * The account of `sub` and the addresses the person added ({@link personEmails}), together
   * with the change stamps of the emails a request may monitor: the account's own, or
   * `fallbackEmails` when there is none, and the added addresses that are verified. One round
   * trip on PostgreSQL, where `getAccount`, `personEmails` and then {@link changeStamp} are
   * three: what a cached answer costs.
   */
  readAccount(sub: string, fallbackEmails: readonly string[]): AccountRead;
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
  /** `invented`: made up by the service (`--demo`, the development surface), never real. */
  setExposures(email: string, breachIds: readonly string[], invented?: boolean): void;
  /**
   * Removes every invented exposure record and the resolutions of its breaches, recording a
   * {@link CatalogChange} per address, in one transaction: real data never inherits invented
   * data. The addresses whose record was removed.
   */
  removeInventedExposures(change: { at: string; to: CatalogOrigin }): string[];
  /** The changes recorded for `emails`, oldest first. */
  catalogChanges(emails: readonly string[]): CatalogChange[];

  // Resolutions
  getResolutions(emails: readonly string[]): ResolutionRow[];
  /**
   * Applies every change or none. A change to `resolved: true` keeps an existing `resolvedAt`;
   * a change to `resolved: false` deletes the row. A breach that left the catalog is still
   * resolvable by its last known data classes. A change naming a breach the store never had,
   * or a data class that breach lacks, throws (`ResolutionChangeError`) and nothing is applied.
   */
  applyResolutionChanges(changes: readonly ResolutionChange[], now: string): void;

  // A person's addresses (`/user/emails`): the ones they added, verified or not
  /** `sub`'s added addresses, oldest first. */
  personEmails(sub: string): PersonEmailRow[];
  /**
   * Adds `email` for `sub` (verified at once when `verifiedBy` is given) unless it is listed
   * already (`exists`) or `sub` has `maxRows` added addresses (`full`).
   */
  addPersonEmail(sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number): 'added' | 'exists' | 'full';
  /**
   * Records a code's send and makes it the address's code (attempts start again), unless the
   * sends since `send.since` to the address or for the person reached their limit, the address
   * is not listed, or it is verified already. Sends stay counted when the address is removed.
   */
  recordCodeSend(sub: string, email: string, send: CodeSend): CodeSendResult;
  /** Counts one entry of the address's code and answers the row as it is after it. */
  countCodeAttempt(sub: string, email: string): PersonEmailRow | undefined;
  /** The code was right: verified by it from `at` on, the code gone. False when not listed. */
  markEmailVerified(sub: string, email: string, at: number): boolean;
  /**
   * Removes `sub`'s added `email` in one transaction and, when nobody else lists it, everything
   * known about the address: exposures, resolutions, catalog changes, lookup state.
   */
  removePersonEmail(sub: string, email: string): boolean;

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

/** An account and its emails' change stamps, read at one moment ({@link SyncBreachStore.readAccount}). */
export interface AccountRead {
  account: Account | undefined;
  /** {@link SyncBreachStore.personEmails} of the account, as at the read (each caller its own copies). */
  added: PersonEmailRow[];
  /**
   * {@link SyncBreachStore.changeStamp} of `emails` as it was at the read. Only the emails the
   * read covered can be asked for (a RangeError otherwise).
   */
  changeStamp(emails: readonly string[]): string;
}

/**
 * The {@link AccountRead.changeStamp} of a read: `prefix` (what every stamp of the store starts
 * with: the catalog's part), then each email's revision, in the order asked.
 */
export function stampsOf(prefix: string, revisions: ReadonlyMap<string, number | string>): AccountRead['changeStamp'] {
  return (emails) => {
    let stamp = prefix;
    for (const email of emails) {
      const revision = revisions.get(emailKey(email));
      if (revision === undefined) throw new RangeError(`the account read did not cover ${JSON.stringify(email)}`);
      stamp += '.' + revision;
    }
    return stamp;
  };
}

/**
 * Storage of the reference service as the service uses it: the methods of
 * {@link SyncBreachStore}, each answering a promise, so one service runs on SQLite (in-process,
 * see {@link asyncBreachStore}) or on PostgreSQL (over the network, `PostgresBreachStore`).
 * A store that cannot reach its database rejects with `StoreUnavailableError`.
 */
export type BreachStore = {
  [K in keyof SyncBreachStore]: SyncBreachStore[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;
};

/** The service-facing form of a synchronous store: a throw becomes a rejection, nothing else changes. */
export function asyncBreachStore(store: SyncBreachStore): BreachStore {
  const wrapped = {} as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of STORE_METHODS) {
    const method = store[name] as (...args: unknown[]) => unknown;
    wrapped[name] = async (...args) => method.apply(store, args);
  }
  return wrapped as unknown as BreachStore;
}

const STORE_METHODS = [
  'listBreaches',
  'getBreach',
  'putBreach',
  'putBreaches',
  'replaceCatalog',
  'loadedCatalog',
  'removedBreaches',
  'catalogSize',
  'catalogRevision',
  'getAccount',
  'readAccount',
  'putAccount',
  'hasUser',
  'createUser',
  'getExposures',
  'setExposures',
  'removeInventedExposures',
  'catalogChanges',
  'getResolutions',
  'applyResolutionChanges',
  'personEmails',
  'addPersonEmail',
  'recordCodeSend',
  'countCodeAttempt',
  'markEmailVerified',
  'removePersonEmail',
  'revision',
  'changeStamp',
  'close',
] as const satisfies readonly (keyof SyncBreachStore)[];
