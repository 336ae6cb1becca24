import { createHash } from 'node:crypto';
import { NO_CATALOG_CHANGES_VERSION, type CatalogChange, type UserChecks } from '../../shared/api/index.ts';
import type { MonitoredAccount } from './accounts.ts';
import type { BreachAlertService } from './BreachAlertService.ts';
import type { Pending } from '../breaches/exposureSource.ts';

/** The versions of the follow-ups of the breach list (`breach-checks-version`, `breach-catalog-changes-version`). */
export interface FollowUpVersions {
  checks: string;
  catalogChanges: string;
}

/**
 * The version of a `GET /user/checks` answer: a digest of what it says, its estimates left out.
 * `nextCheckAt` (per address and the queue's) is worked out from the time and the queue's
 * recent requests, and `waiting` counts other people's lookups: they move on every request
 * while the facts stand still, so counting them would make every sync ask again.
 */
export function checksVersion(checks: UserChecks): string {
  const facts = {
    ...checks,
    addresses: checks.addresses.map((address) => ({ ...address, nextCheckAt: undefined })),
    queue: { ...checks.queue, waiting: undefined, nextCheckAt: undefined },
  };
  return digest(JSON.stringify(facts));
}

/**
 * The version of a `GET /user/catalog-changes` answer: a digest of the changes, or for none the
 * documented {@link NO_CATALOG_CHANGES_VERSION}, which tells a client the answer without asking.
 */
export function catalogChangesVersion(changes: readonly CatalogChange[]): string {
  return changes.length === 0 ? NO_CATALOG_CHANGES_VERSION : digest(JSON.stringify(changes));
}

function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/**
 * The follow-up versions of one account, worked out from the answers themselves and kept while
 * what they are built from stands still: the store's change stamp of the account (exposures,
 * resolutions, the catalog; catalog changes are written with a move of it) and the source's own
 * stamp (`Pending.stamp`: HIBP's check rows and source state). A cached version costs the breach
 * list a map look-up; one whose inputs moved is worked out again, and is the same when the
 * answers are (a resolution moves the stamp, not the checks). Bounded: the oldest entries go first.
 */
export class FollowUpVersionCache {
  readonly #service: BreachAlertService;
  readonly #maxEntries: number;
  /** By subject; an entry holds for the addresses and the two stamps it was worked out for (compared, not joined into a key: the hot path builds no string). */
  readonly #entries = new Map<string, Entry>();

  constructor(service: BreachAlertService, maxEntries = 100_000) {
    this.#service = service;
    this.#maxEntries = maxEntries;
  }

  /**
   * The versions for one answer: `knowledge` is what the source said for it (read before, so a
   * version is never older than the data it stands for). Synchronous when cached (the hot path:
   * no promise); otherwise a promise of them, worked out from the answers.
   */
  versions(account: MonitoredAccount, knowledge: Pending): FollowUpVersions | Promise<FollowUpVersions> {
    const entry = this.#entries.get(account.sub);
    if (entry && entry.storeStamp === account.stamp && entry.sourceStamp === knowledge.stamp && sameEmails(entry.emails, account.emails)) return entry.versions;
    return this.#workOut(account, knowledge.stamp);
  }

  async #workOut(account: MonitoredAccount, sourceStamp: string | undefined): Promise<FollowUpVersions> {
    const entry: Omit<Entry, 'versions'> = { emails: [...account.emails], storeStamp: account.stamp, sourceStamp };
    // Read after the stamps: if the data moves meanwhile, the next answer's stamps differ and work it out again.
    const [checks, changes] = await Promise.all([this.#service.checks(account), this.#service.catalogChanges(account)]);
    const versions = { checks: checksVersion(checks), catalogChanges: catalogChangesVersion(changes) };
    this.#entries.delete(account.sub);
    this.#entries.set(account.sub, { ...entry, versions });
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    return versions;
  }
}

interface Entry {
  emails: readonly string[];
  storeStamp: string;
  sourceStamp: string | undefined;
  versions: FollowUpVersions;
}

function sameEmails(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
