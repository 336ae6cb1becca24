import type Database from 'better-sqlite3';
import { migrateSchema, type Migration } from '../../shared/db/migrations.ts';
import { openPrivateDatabase } from '../db/openPrivateDatabase.ts';

// The graph lives in its own file, apart from the account database: it is derived data (rebuilt
// from the local store after every sync) plus a cache of remote answers, so it can be deleted
// at any time and has its own schema version.

/** Append only: a released step never changes. */
const MIGRATIONS: readonly Migration<Database.Database>[] = [
  {
    version: 10,
    name: 'triples-nodes-cache',
    up(db) {
      db.exec(`
        CREATE TABLE triple (
          subject TEXT NOT NULL,
          predicate TEXT NOT NULL,
          object_id TEXT,
          object_value TEXT,
          provenance TEXT NOT NULL,
          CHECK ((object_id IS NULL) <> (object_value IS NULL))
        );
        -- Outgoing arcs in answer order: literals (object_id NULL) first, then nodes by dcid.
        CREATE INDEX triple_out ON triple (subject, predicate, object_id, object_value);
        CREATE INDEX triple_in ON triple (object_id, predicate, subject) WHERE object_id IS NOT NULL;
        -- Derived from the triples on every replace, so answers need no per-item lookups of name and types.
        CREATE TABLE node (dcid TEXT PRIMARY KEY, name TEXT, types TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE graph_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        CREATE TABLE query_cache (
          endpoint TEXT NOT NULL,
          nodes TEXT NOT NULL,
          property TEXT NOT NULL,
          response TEXT NOT NULL,
          fetched_at TEXT NOT NULL,
          PRIMARY KEY (endpoint, nodes, property)
        ) WITHOUT ROWID;
        CREATE INDEX query_cache_age ON query_cache (fetched_at);
      `);
    },
  },
];

export const GRAPH_SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

export class GraphSchemaTooNewError extends Error {
  override readonly name = 'GraphSchemaTooNewError';
  constructor(found: number) {
    super(`the graph database has schema version ${found}, newer than this app knows (${GRAPH_SCHEMA_VERSION}); delete it to rebuild`);
  }
}

/** Opens (creating and migrating) a graph database file, or `:memory:`. */
export function openGraphDatabase(file: string): Database.Database {
  // Derived data: losing the last commit on a power cut costs one rebuild, not the person's work.
  return openPrivateDatabase(file, { synchronous: 'NORMAL' }, migrateGraph);
}

function migrateGraph(db: Database.Database): void {
  migrateSchema(db, MIGRATIONS, { tooNew: (found) => new GraphSchemaTooNewError(found) });
}
