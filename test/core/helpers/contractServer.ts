// The reference service's own rules (BreachAlertService over an in-memory store), called
// in-process: every 400/404 the outbox sees is the one the real service would give, with its
// pointers, and faults can be injected call by call. For fast, deterministic outbox tests;
// the HTTP path is covered by faults.test.ts and the reliability soak.
import { createHash } from 'node:crypto';
import { dataClassKey, ResolutionRequest, issuesToFieldErrors, type Breach, type ResolutionItem } from '../../../shared/api/index.ts';
import { ApiError, kindOfStatus } from '../../../electron/core/api/ApiError.ts';
import type { ListBreachesResult } from '../../../electron/core/api/BreachAlertClient.ts';
import { AccountDirectory } from '../../../server/api/accounts.ts';
import { BreachAlertService } from '../../../server/api/BreachAlertService.ts';
import { DemoExposures } from '../../../server/breaches/exposureSource.ts';
import { HttpProblem } from '../../../server/http/problems.ts';
import { asyncBreachStore } from '../../../server/breaches/BreachStore.ts';
import { openSqliteBreachStore, type SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';

export type Fault =
  | 'drop-before' // the connection fails before the service sees the request
  | 'drop-after' // the service commits, then the answer is lost
  | 'server-error'
  | 'rate-limited'
  | 'unauthorized' // 401 even after the client's refresh
  | 'forbidden';

export const SUB = 'tester';

export function catalogBreach(id: string, dataClasses: string[] = ['Email addresses', 'Passwords', 'Usernames']): Breach {
  return {
    id,
    domain: `${id.toLowerCase()}.example`,
    breachDate: '2020-01-01',
    addedDate: '2020-02-01T10:00:00Z',
    modifiedDate: '2020-02-01T10:00:00Z',
    dataClasses,
    isSensitive: false,
  };
}

export class ContractServer {
  readonly store: SqliteBreachStore;
  readonly service: BreachAlertService;
  readonly faults: Fault[] = [];
  /** Bodies the service accepted, in order. */
  readonly accepted: ResolutionItem[][] = [];
  /** Every call, answered or not. */
  calls = 0;
  retryAfterMs = 1000;

  constructor(breaches: readonly Breach[], exposures: Record<string, string[]>) {
    this.store = openSqliteBreachStore(':memory:');
    this.store.replaceCatalog(breaches);
    this.store.putAccount({ sub: SUB, emails: Object.keys(exposures), deleted: false });
    for (const [email, ids] of Object.entries(exposures)) this.store.setExposures(email, ids);
    this.store.createUser(SUB);
    // Every monitored email has its fixture exposures stored, so the demo source invents nothing here.
    const now = () => new Date('2026-02-14T09:30:00Z');
    this.service = new BreachAlertService(asyncBreachStore(this.store), new AccountDirectory(asyncBreachStore(this.store), {}), now, new DemoExposures(asyncBreachStore(this.store), now));
  }

  close(): void {
    this.store.close();
  }

  /** Stops monitoring an email on the account side: its items now answer 404. */
  removeEmail(email: string): void {
    const account = this.store.getAccount(SUB)!;
    this.store.putAccount({ ...account, emails: account.emails.filter((e) => e !== email) });
  }

  async postResolutions(items: readonly ResolutionItem[], signal?: AbortSignal): Promise<void> {
    this.calls++;
    signal?.throwIfAborted();
    const fault = this.faults.shift();
    if (fault === 'drop-before') throw new ApiError('network', 'could not reach the service: ECONNRESET');
    if (fault === 'server-error') throw new ApiError('server', 'the service failed to answer; try again later', { status: 500 });
    if (fault === 'rate-limited') throw new ApiError('rate-limited', 'slow down', { status: 429, retryAfterMs: this.retryAfterMs });
    if (fault === 'unauthorized') throw new ApiError('unauthorized', 'token rejected', { status: 401 });
    if (fault === 'forbidden') throw new ApiError('forbidden', 'this account is disabled', { status: 403 });
    const body = JSON.parse(JSON.stringify(items)) as unknown;
    const parsed = ResolutionRequest.safeParse(body);
    if (!parsed.success) {
      const errors = issuesToFieldErrors(parsed.error.issues);
      throw new ApiError('invalid', errors.map((e) => `${e.pointer}: ${e.message}`).join('; '), { status: 400, fieldErrors: errors });
    }
    try {
      await this.service.applyResolutions(await this.service.requireMonitoringUser({ sub: SUB }), parsed.data);
    } catch (error) {
      if (error instanceof HttpProblem) throw new ApiError(kindOfStatus(error.status), error.detail, { status: error.status, fieldErrors: error.errors ?? [] });
      throw error;
    }
    this.accepted.push(parsed.data);
    if (fault === 'drop-after') throw new ApiError('network', 'could not reach the service: socket hang up');
  }

  async listBreaches(_query: unknown, options: { etag?: string | undefined } = {}): Promise<ListBreachesResult> {
    const items = await this.service.listBreaches(await this.service.requireMonitoringUser({ sub: SUB }), { includeSensitive: true });
    const text = JSON.stringify(items);
    const etag = '"' + createHash('sha256').update(text).digest('base64url').slice(0, 16) + '"';
    if (options.etag === etag) return { status: 304, etag };
    return { status: 200, etag, items, bytes: text.length };
  }

  /** Every resolved (breach, email, class key) the service holds for the monitored emails. */
  resolvedKeys(): Set<string> {
    const account = this.store.getAccount(SUB)!;
    return new Set(this.store.getResolutions(account.emails).map((r) => `${r.breachId}|${r.email}|${dataClassKey(r.dataClass)}`));
  }
}
