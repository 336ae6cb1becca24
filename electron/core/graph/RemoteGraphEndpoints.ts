import path from 'node:path';
import type Database from 'better-sqlite3';
import type { GraphRemote } from '../../../shared/ipc/index.ts';
import type { SecretStore } from '../auth/secrets/SecretStore.ts';
import { openGraphDatabase } from '../../../engine/graph/graphDatabase.ts';
import { NodeQueryClient } from './NodeQueryClient.ts';
import { QueryCache } from './QueryCache.ts';

export interface RemoteGraphEndpointsOptions {
  /** The app's data folder: `graph-cache.db` holds the answers of every remote endpoint. */
  dataDir: string;
  /** Where each endpoint's API key lives (never in settings, never shown back). */
  secrets: SecretStore;
  fetch?: typeof fetch;
}

/**
 * The remote graph endpoints the person has used: one client per URL (its key in the secret
 * store), one answer cache for all of them so a remote query still answers offline. The cache
 * database is opened the first time a remote endpoint is used, not at start-up.
 */
export class RemoteGraphEndpoints {
  readonly #options: RemoteGraphEndpointsOptions;
  readonly #clients = new Map<string, NodeQueryClient>();
  #db: Database.Database | undefined;
  #cache: QueryCache | undefined;

  constructor(options: RemoteGraphEndpointsOptions) {
    this.#options = options;
  }

  client(url: string): NodeQueryClient {
    let client = this.#clients.get(url);
    if (!client) {
      this.#db ??= openGraphDatabase(path.join(this.#options.dataDir, 'graph-cache.db'));
      this.#cache ??= new QueryCache(this.#db);
      client = new NodeQueryClient({ baseUrl: url, secrets: this.#options.secrets, cache: this.#cache, ...(this.#options.fetch ? { fetch: this.#options.fetch } : {}) });
      this.#clients.set(url, client);
    }
    return client;
  }

  /** What the UI may know about the configured endpoint: its URL and whether a key is stored. */
  async view(url: string | undefined): Promise<GraphRemote> {
    return url ? { url, hasKey: await this.client(url).hasApiKey() } : { hasKey: false };
  }

  close(): void {
    this.#clients.clear();
    this.#cache = undefined;
    this.#db?.close();
    this.#db = undefined;
  }
}
