import type Database from 'better-sqlite3';
import { NodeResponse, parseExpression, printExpression } from '../../../shared/graph/index.ts';

export interface CachedAnswer {
  response: NodeResponse;
  fetchedAt: string;
}

/**
 * Whole answers of a remote endpoint, kept in the graph database so the lookup works offline.
 * Keyed by endpoint, the set of nodes and the canonical expression, so `->[a,b]` asked once is
 * found again as `->[a, b]`. The oldest entries go past `maxEntries`.
 */
export class QueryCache {
  readonly #db: Database.Database;
  readonly #maxEntries: number;

  constructor(db: Database.Database, options: { maxEntries?: number } = {}) {
    this.#db = db;
    this.#maxEntries = options.maxEntries ?? 1000;
  }

  get(endpoint: string, nodes: readonly string[], property: string): CachedAnswer | undefined {
    const row = this.#db
      .prepare('SELECT response, fetched_at AS fetchedAt FROM query_cache WHERE endpoint = ? AND nodes = ? AND property = ?')
      .get(endpoint, nodesKey(nodes), propertyKey(property)) as { response: string; fetchedAt: string } | undefined;
    if (!row) return undefined;
    // A row written by an older app, or damaged, is a miss rather than a crash.
    const parsed = NodeResponse.safeParse(JSON.parse(row.response));
    return parsed.success ? { response: parsed.data, fetchedAt: row.fetchedAt } : undefined;
  }

  put(endpoint: string, nodes: readonly string[], property: string, response: NodeResponse, fetchedAt: string): void {
    this.#db.transaction(() => {
      this.#db
        .prepare('INSERT OR REPLACE INTO query_cache (endpoint, nodes, property, response, fetched_at) VALUES (?, ?, ?, ?, ?)')
        .run(endpoint, nodesKey(nodes), propertyKey(property), JSON.stringify(response), fetchedAt);
      this.#db
        .prepare('DELETE FROM query_cache WHERE (endpoint, nodes, property) IN (SELECT endpoint, nodes, property FROM query_cache ORDER BY fetched_at DESC LIMIT -1 OFFSET ?)')
        .run(this.#maxEntries);
    })();
  }

  /** Forgets one endpoint's answers, or all. */
  clear(endpoint?: string): void {
    if (endpoint === undefined) this.#db.prepare('DELETE FROM query_cache').run();
    else this.#db.prepare('DELETE FROM query_cache WHERE endpoint = ?').run(endpoint);
  }
}

function nodesKey(nodes: readonly string[]): string {
  return JSON.stringify([...new Set(nodes)].sort());
}

function propertyKey(property: string): string {
  const parsed = parseExpression(property);
  return parsed.ok ? printExpression(parsed.ast) : property.trim();
}
