import { rmSync } from 'node:fs';
import type { ApiContract } from '../../../shared/api/index.ts';
import type { AccessTokenSource } from '../api/AccessTokenSource.ts';
import type { BreachDetailsSource } from '../api/FirefoxMonitorClient.ts';
import { listBreaches } from '../db/breachQueries.ts';
import { accountDatabasePath } from '../db/openAccountDatabase.ts';
import { graphDatabasePath, keepGraphCurrent, NodeQueryEngine, TripleStore } from '../graph/index.ts';
import { openAccountSync, type AccountSync } from '../sync/openAccountSync.ts';

export interface AccountRef {
  accountId: string;
  issuer: string;
  subject: string;
}

/**
 * The local side of one signed-in account: its database, outbox and sync scheduler. It stays
 * open while the account needs to sign in again, so the person can keep reviewing and
 * resolving offline; it closes on sign-out or when another account signs in.
 */
export class AccountSession {
  readonly account: AccountRef;
  readonly sync: AccountSync;
  readonly file: string;
  /** The breach graph of this account's local store, for the embedded node-query engine. */
  readonly graph: NodeQueryEngine;
  readonly #graphStore: TripleStore;
  readonly #graphUpdates: { dispose(): void; rebuild(): void };

  private constructor(
    account: AccountRef,
    sync: AccountSync,
    file: string,
    graphStore: TripleStore,
    onGraphError: (error: unknown) => void,
    graphShows: (breach: { isSensitive: boolean }) => boolean,
  ) {
    this.account = account;
    this.sync = sync;
    this.file = file;
    this.#graphStore = graphStore;
    this.graph = new NodeQueryEngine(graphStore);
    // Rebuilt from the local store now and after every sync: never from the service directly,
    // and never with emails (the graph holds breaches, domains and data classes only).
    // Only the breaches the sensitive policy shows: the graph names breaches too.
    this.#graphUpdates = keepGraphCurrent(
      graphStore,
      { onDidSync: (listener) => sync.scheduler.onDidSync(listener), readBreaches: () => listBreaches(sync.database.db).filter(graphShows) },
      onGraphError,
    );
  }

  static open(options: {
    dataDir: string;
    account: AccountRef;
    apiBaseUrl: string;
    contract?: ApiContract;
    details?: BreachDetailsSource;
    tokens: AccessTokenSource;
    intervalMinutes?: number;
    fetch?: typeof fetch;
    onGraphError?: (error: unknown) => void;
    /** Which breaches the graph may hold (the sensitive policy); default: all. */
    graphShows?: (breach: { isSensitive: boolean }) => boolean;
  }): AccountSession {
    const file = accountDatabasePath(options.dataDir, options.account.issuer, options.account.subject);
    const sync = openAccountSync({
      file,
      apiBaseUrl: options.apiBaseUrl,
      ...(options.contract ? { contract: options.contract } : {}),
      ...(options.details ? { details: options.details } : {}),
      tokens: options.tokens,
      ...(options.intervalMinutes !== undefined ? { intervalMinutes: options.intervalMinutes } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    const graphStore = TripleStore.open(graphDatabasePath(options.dataDir, options.account.issuer, options.account.subject));
    return new AccountSession(options.account, sync, file, graphStore, options.onGraphError ?? (() => {}), options.graphShows ?? (() => true));
  }

  /** Builds the graph again from the local store (what it may hold changed). */
  rebuildGraph(): void {
    this.#graphUpdates.rebuild();
  }

  get db() {
    return this.sync.database.db;
  }

  async close(): Promise<void> {
    this.#graphUpdates.dispose();
    await this.sync.close();
    this.#graphStore.close();
  }
}

/** Removes an account's database and its WAL files (sign-out with "also delete local data"). */
export function deleteAccountDatabase(dataDir: string, account: AccountRef): void {
  for (const file of [accountDatabasePath(dataDir, account.issuer, account.subject), graphDatabasePath(dataDir, account.issuer, account.subject)]) {
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  }
}
