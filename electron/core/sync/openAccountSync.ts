import type { AccessTokenSource } from '../api/AccessTokenSource.ts';
import type { ApiContract } from '../../../shared/api/index.ts';
import { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { canSendUnderFirefox, FirefoxMonitorClient, type BreachDetailsSource } from '../api/FirefoxMonitorClient.ts';
import { openAccountDatabase, type AccountDatabase } from '../db/openAccountDatabase.ts';
import { BackoffState, type BackoffPolicy } from '../api/backoff.ts';
import { Outbox } from '../outbox/Outbox.ts';
import { Puller } from './Puller.ts';
import { SyncScheduler, type Timers } from './SyncScheduler.ts';

export interface AccountSyncOptions {
  /** The account's database file (see `accountDatabasePath`), or `:memory:`. */
  file: string;
  /** The API base, with its `/api/v1` (or, for `firefox-v1`, `/api/firefox/v1`) prefix. */
  apiBaseUrl: string;
  /** Which contract the service speaks; default `v1`. */
  contract?: ApiContract;
  /** Breach details for the newer contract, whose items carry only ids (required for `firefox-v1`). */
  details?: BreachDetailsSource;
  tokens: AccessTokenSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
  backoff?: Partial<BackoffPolicy>;
  pushDelayMs?: number;
  /** The app's sync-interval setting. */
  intervalMinutes?: number;
  timers?: Timers;
  random?: () => number;
}

/** One signed-in account's store, outbox, puller and scheduler, wired together. */
export interface AccountSync {
  readonly database: AccountDatabase;
  readonly client: BreachAlertClient | FirefoxMonitorClient;
  readonly contract: ApiContract;
  readonly outbox: Outbox;
  readonly puller: Puller;
  readonly scheduler: SyncScheduler;
  /** Stops syncing, lets a request in flight finish, and closes the database. */
  close(): Promise<void>;
}

export function openAccountSync(options: AccountSyncOptions): AccountSync {
  const database = openAccountDatabase(options.file);
  const contract = options.contract ?? 'v1';
  const http = { baseUrl: options.apiBaseUrl, tokens: options.tokens, ...(options.fetch ? { fetch: options.fetch } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) };
  let client: BreachAlertClient | FirefoxMonitorClient;
  if (contract === 'firefox-v1') {
    if (!options.details) throw new TypeError('the newer Monitor contract needs a breach details source');
    client = new FirefoxMonitorClient({ ...http, details: options.details });
  } else client = new BreachAlertClient(http);
  const random = options.random ?? Math.random;
  // One wait for the account: a service that failed the pull gets no push either, and the reverse.
  const backoffState = new BackoffState({ random, ...(options.backoff ? { policy: options.backoff } : {}) });
  const outbox = new Outbox({
    db: database.db,
    sender: client,
    backoffState,
    // What the newer contract cannot carry (an unresolve, another class) is kept on this machine.
    ...(contract === 'firefox-v1' ? { canSend: canSendUnderFirefox } : {}),
  });
  const puller = new Puller({ db: database.db, client });
  const scheduler = new SyncScheduler({
    db: database.db,
    outbox,
    puller,
    random,
    backoffState,
    ...(options.pushDelayMs !== undefined ? { pushDelayMs: options.pushDelayMs } : {}),
    ...(options.intervalMinutes !== undefined ? { intervalMinutes: options.intervalMinutes } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  return {
    database,
    client,
    contract,
    outbox,
    puller,
    scheduler,
    async close() {
      await scheduler.stop();
      await outbox.shutdown();
      database.close();
    },
  };
}
