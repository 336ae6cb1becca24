import {
  compareBreaches,
  dataClassKey,
  emailKey,
  matchesBreachQuery,
  type Breach,
  type BreachQuery,
  type CatalogChange,
  type ProblemFieldError,
  type ResolutionRequest,
  type UserBreach,
  type UserChecks,
} from '../../shared/api/index.ts';
import type { BreachStore, RemovedBreach, ResolutionChange } from '../breaches/BreachStore.ts';
import { dataClassSpellings } from '../breaches/breachRules.ts';
import { HttpProblem } from '../http/problems.ts';
import type { AccountDirectory, MonitoredAccount } from './accounts.ts';
import type { ExposureSource, Pending } from '../breaches/exposureSource.ts';

export interface Caller {
  sub: string;
  email?: string | undefined;
}

/**
 * The rules of the breach-alert contract, independent of HTTP: who the caller monitors, which
 * breaches affect them, filters and order, and validated, all-or-nothing resolution updates.
 */
export class BreachAlertService {
  readonly #store: BreachStore;
  readonly #accounts: AccountDirectory;
  readonly #now: () => Date;
  readonly #source: ExposureSource;
  #catalogCache: { revision: number; byId: Map<string, Breach>; removed: Map<string, RemovedBreach> } | undefined;

  /** `source` decides what is known about an address; see {@link ExposureSource}. */
  constructor(store: BreachStore, accounts: AccountDirectory, now: () => Date, source: ExposureSource) {
    this.#store = store;
    this.#accounts = accounts;
    this.#now = now;
    this.#source = source;
  }

  /** `hibp`, `demo` or `none`: the `breach-data` header of every answer carrying exposures. */
  get source(): ExposureSource['kind'] {
    return this.#source.kind;
  }

  /** Which of the account's addresses the source has no answer for yet (the response headers). */
  pending(account: MonitoredAccount): Promise<Pending> {
    return this.#source.pending(account.emails);
  }

  /**
   * Tells the source of addresses just proven the caller's: a lookup queue tracks them (new ones
   * are looked up first) instead of waiting for the next answer that names them.
   */
  async notice(emails: readonly string[]): Promise<void> {
    await this.#source.pending(emails);
  }

  /** `GET /user/checks`. */
  checks(account: MonitoredAccount): Promise<UserChecks> {
    return this.#source.checks(account.emails, () => this.#catalogList());
  }

  /** `GET /user/catalog-changes`: what catalog changes did to the caller's addresses, oldest first. */
  catalogChanges(account: MonitoredAccount): Promise<CatalogChange[]> {
    return this.#store.catalogChanges(account.emails);
  }

  /** `POST /user`: creates the monitoring user; `created` false when it existed. */
  async createUser(caller: Caller): Promise<{ created: boolean; emails: string[] }> {
    const account = await this.#activeAccount(caller);
    const created = await this.#store.createUser(caller.sub);
    await this.#exposures(account.emails);
    return { created, emails: account.emails };
  }

  /**
   * The caller's monitoring user, or 403: the account is gone at the identity provider, or
   * `POST /user` was never called. Checked before the request body is even read.
   */
  async requireMonitoringUser(caller: Caller): Promise<MonitoredAccount> {
    const account = await this.#activeAccount(caller);
    if (!(await this.#store.hasUser(caller.sub))) throw new HttpProblem(403, 'no monitoring user for this account: call POST /user first');
    return account;
  }

  /** Moves when anything this account's answers are built from changes; other users' writes leave it. */
  changeStamp(account: MonitoredAccount): Promise<string> {
    return this.#store.changeStamp(account.emails);
  }

  /**
   * Where the caller stands, without answering for it: the newer contract words "no monitoring
   * user" (`no-monitor-account`) and "account gone" its own way.
   */
  async monitoringState(caller: Caller): Promise<{ state: 'active'; account: MonitoredAccount } | { state: 'deleted' } | { state: 'no-user' }> {
    const account = await this.#accounts.resolve(caller.sub, caller.email);
    if (account.deleted) return { state: 'deleted' };
    if (!(await this.#store.hasUser(caller.sub))) return { state: 'no-user' };
    return { state: 'active', account };
  }

  /** `GET /user/breaches`, filtered and in contract order. */
  async listBreaches(account: MonitoredAccount, query: BreachQuery): Promise<UserBreach[]> {
    return (await this.#userBreaches(account, await this.#exposures(account.emails))).filter((item) => matchesBreachQuery(item, query)).sort((a, b) => compareBreaches(a.breach, b.breach));
  }

  /** `POST /user/breaches/resolutions`: validates everything first, then applies it in one transaction. */
  async applyResolutions(account: MonitoredAccount, items: ResolutionRequest): Promise<void> {
    if (items.length === 0) return;
    const exposures = await this.#exposures(account.emails);
    const catalog = await this.#catalog();
    const removed = await this.#removed();
    const invalid: ProblemFieldError[] = [];
    const missing: ProblemFieldError[] = [];
    const changes: ResolutionChange[] = [];

    items.forEach((item, index) => {
      // A breach that left the catalog keeps its resolutions, and they stay changeable (by its last known data classes).
      const breach = catalog.get(item.breachId) ?? removed.get(item.breachId)?.breach;
      if (!breach) {
        missing.push({ pointer: `/${index}/breachId`, message: `breach "${item.breachId}" not found` });
        return;
      }
      const spelling = dataClassSpellings(breach.dataClasses);
      const classes: string[] = [];
      item.dataClasses.forEach((name, classIndex) => {
        const own = spelling.get(dataClassKey(name));
        if (own === undefined) invalid.push({ pointer: `/${index}/dataClasses/${classIndex}`, message: `breach "${breach.id}" has no data class "${name}"` });
        else if (!classes.includes(own)) classes.push(own);
      });
      const affected = account.emails.filter((email) => exposures.get(email)?.has(breach.id));
      let targets: string[];
      if (item.emails) {
        targets = [...new Set(item.emails.map(emailKey))];
        targets.forEach((email) => {
          if (!affected.includes(email)) {
            const at = item.emails!.findIndex((given) => emailKey(given) === email);
            missing.push({ pointer: `/${index}/emails/${at}`, message: `email not found for breach "${breach.id}"` });
          }
        });
      } else {
        targets = affected;
        if (targets.length === 0) missing.push({ pointer: `/${index}/breachId`, message: `breach "${breach.id}" not found for any monitored email` });
      }
      for (const email of targets) for (const dataClass of classes) changes.push({ email, breachId: breach.id, dataClass, resolved: item.resolved });
    });

    if (invalid.length > 0) throw new HttpProblem(400, invalid.map((error) => error.message).join('; '), { errors: invalid });
    if (missing.length > 0) throw new HttpProblem(404, missing.map((error) => error.message).join('; '), { errors: missing });
    await this.#store.applyResolutionChanges(changes, this.#nowMinute());
  }

  async #activeAccount(caller: Caller): Promise<MonitoredAccount> {
    const account = await this.#accounts.resolve(caller.sub, caller.email);
    if (account.deleted) throw new HttpProblem(403, 'this account is disabled or no longer exists at the identity provider');
    return account;
  }

  async #userBreaches(account: MonitoredAccount, exposures: Map<string, Set<string>>): Promise<UserBreach[]> {
    const catalog = await this.#catalog();
    const removed = await this.#removed();
    const byBreach = new Map<string, string[]>();
    for (const [email, ids] of exposures) {
      for (const id of ids) {
        const emails = byBreach.get(id);
        if (emails) emails.push(email);
        else byBreach.set(id, [email]);
      }
    }
    // Collected in Maps and turned into objects with Object.fromEntries, which defines every
    // name as an own key: assigning `classes[name]` would treat a class named "__proto__" as the prototype.
    const resolved = new Map<string, Map<string, { resolvedAt: string }>>();
    for (const row of await this.#store.getResolutions(account.emails)) {
      const key = row.breachId + '\u0000' + row.email;
      let classes = resolved.get(key);
      if (!classes) resolved.set(key, (classes = new Map()));
      classes.set(row.dataClass, { resolvedAt: row.resolvedAt });
    }
    const items: UserBreach[] = [];
    for (const [id, emails] of byBreach) {
      const gone = catalog.has(id) ? undefined : removed.get(id);
      const breach: Breach | undefined = catalog.get(id) ?? gone?.breach;
      if (!breach) continue; // a breach the store never had (HIBP named one before the catalog refresh brought it)
      emails.sort();
      items.push({
        breach,
        breachedAccounts: emails.map((email) => ({ email, resolvedDataClasses: Object.fromEntries(resolved.get(id + '\u0000' + email) ?? []) })),
        ...(gone ? { removedFromCatalogAt: gone.removedAt } : {}),
      });
    }
    return items;
  }

  /**
   * Breach ids per monitored email, for the emails the source has answered for: an email not
   * checked yet is absent (unknown), never an empty set (clean).
   */
  async #exposures(emails: readonly string[]): Promise<Map<string, Set<string>>> {
    const { exposures } = await this.#source.know(emails, () => this.#catalogList());
    return new Map([...exposures].map(([email, ids]) => [email, new Set(ids)]));
  }

  async #catalogList(): Promise<Breach[]> {
    return [...(await this.#catalog()).values()];
  }

  /** The catalog by id, re-read only when the store has changed since. */
  async #catalog(): Promise<Map<string, Breach>> {
    return (await this.#catalogState()).byId;
  }

  /** Breaches that left the catalog, with their last known fields. */
  async #removed(): Promise<Map<string, RemovedBreach>> {
    return (await this.#catalogState()).removed;
  }

  async #catalogState(): Promise<{ byId: Map<string, Breach>; removed: Map<string, RemovedBreach> }> {
    const revision = await this.#store.revision();
    if (this.#catalogCache?.revision !== revision) {
      const [list, removed] = await Promise.all([this.#store.listBreaches(), this.#store.removedBreaches()]);
      this.#catalogCache = { revision, byId: new Map(list.map((breach) => [breach.id, breach])), removed };
    }
    return this.#catalogCache;
  }

  #nowMinute(): string {
    const now = this.#now().getTime();
    return new Date(now - (now % 60_000)).toISOString().slice(0, 16) + ':00Z';
  }
}
