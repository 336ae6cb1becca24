import type { AccessTokenSource } from '../api/AccessTokenSource.ts';
import { BreachAlertClient } from '../api/BreachAlertClient.ts';
import { openAccountDatabase, type AccountDatabase } from '../db/openAccountDatabase.ts';
import type { BackoffPolicy } from '../outbox/backoff.ts';
import { Outbox } from '../outbox/Outbox.ts';
import { Puller } from './Puller.ts';
import { SyncScheduler, type Timers } from './SyncScheduler.ts';

export interface AccountSyncOptions {
  /** The account's database file (see `accountDatabasePath`), or `:memory:`. */
  file: string;
  /** The API base, with its `/api/v1` prefix. */
  apiBaseUrl: string;
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
  readonly client: BreachAlertClient;
  readonly outbox: Outbox;
  readonly puller: Puller;
  readonly scheduler: SyncScheduler;
  /** Stops syncing, lets a request in flight finish, and closes the database. */
  close(): Promise<void>;
}

export function openAccountSync(options: AccountSyncOptions): AccountSync {
  const database = openAccountDatabase(options.file);
  const client = new BreachAlertClient({
    baseUrl: options.apiBaseUrl,
    tokens: options.tokens,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  const random = options.random ?? Math.random;
  const outbox = new Outbox({ db: database.db, sender: client, random, ...(options.backoff ? { backoff: options.backoff } : {}) });
  const puller = new Puller({ db: database.db, client });
  const scheduler = new SyncScheduler({
    db: database.db,
    outbox,
    puller,
    random,
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.pushDelayMs !== undefined ? { pushDelayMs: options.pushDelayMs } : {}),
    ...(options.intervalMinutes !== undefined ? { intervalMinutes: options.intervalMinutes } : {}),
    ...(options.timers ? { timers: options.timers } : {}),
  });
  return {
    database,
    client,
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
