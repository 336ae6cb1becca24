import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import { GRAPH_SCHEMA_VERSION, GraphSchemaTooNewError, openGraphDatabase } from '../../../engine/graph/graphDatabase.ts';
import { graphDatabasePath } from '../../../electron/core/graph/graphPath.ts';
import { NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import { arcRowsQuery, TripleStore } from '../../../engine/graph/TripleStore.ts';
import { CATALOG, memoryGraph } from './helpers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'graph-db-'));
  dirs.push(dir);
  return dir;
}

describe('graph database', () => {
  it('lives in <dataDir>/accounts/<accountId>.graph.db, private to the user, and keeps tokens valid across a restart', () => {
    const file = graphDatabasePath(tempDir(), 'https://id.example/', 'alice');
    expect(path.basename(file)).toMatch(/^[0-9a-f]{32}\.graph\.db$/);
    expect(path.basename(path.dirname(file))).toBe('accounts');
    const first = TripleStore.open(file);
    replaceGraph(first, CATALOG);
    const token = new NodeQueryEngine(first).query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 1 }).nextToken;
    first.close();
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = TripleStore.open(file);
    try {
      expect(again.database.pragma('user_version', { simple: true })).toBe(GRAPH_SCHEMA_VERSION);
      const page = new NodeQueryEngine(again).query({ nodes: ['Breach'], property: '<-typeOf', nextToken: token }, { pageSize: 1 });
      expect(page.data.Breach!.arcs!.typeOf!.nodes.map((n) => n.dcid)).toEqual(['AshleyMadison']);
    } finally {
      again.close();
    }
  });

  it('refuses a file from a newer app', () => {
    const file = path.join(tempDir(), 'new.graph.db');
    const db = new Database(file);
    db.pragma(`user_version = ${GRAPH_SCHEMA_VERSION + 10}`);
    db.close();
    expect(() => openGraphDatabase(file)).toThrow(GraphSchemaTooNewError);
  });

  it('refuses a triple with both or neither object', () => {
    const store = memoryGraph();
    expect(() => store.replace([{ subject: 's', predicate: 'p', objectId: 'o', objectValue: 'v', provenance: 'x' }])).toThrow(/exactly one of objectId and objectValue/);
    expect(() => store.replace([{ subject: 's', predicate: 'p', provenance: 'x' }])).toThrow(/exactly one/);
  });

  it('answers __proto__ as an ordinary node and label', () => {
    const store = memoryGraph();
    store.replace([{ subject: '__proto__', predicate: '__proto__', objectValue: 'v', provenance: 'x' }]);
    const answer = new NodeQueryEngine(store).query({ nodes: ['__proto__'], property: '->*' });
    expect(JSON.stringify(answer)).toBe('{"data":{"__proto__":{"arcs":{"__proto__":{"nodes":[{"provenanceId":"x","value":"v"}]}}}}}');
  });
});

describe('query plans', () => {
  const plan = (store: TripleStore, query: { sql: string; params: (string | number)[] }) =>
    (store.database.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params) as { detail: string }[]).map((row) => row.detail).join('\n');

  it('reads a page of incoming or outgoing values off an index, already in order', () => {
    const store = memoryGraph();
    replaceGraph(store, CATALOG);
    const incoming = plan(store, arcRowsQuery('Breach', 'in', 'typeOf', { after: { kind: 'node', key: 'Adobe' }, limit: 501 }));
    expect(incoming).toMatch(/SEARCH t USING (COVERING )?INDEX triple_in \(object_id=\? AND predicate=\? AND subject>\?\)/);
    expect(incoming).not.toMatch(/TEMP B-TREE/);
    const outgoing = plan(store, arcRowsQuery('Adobe', 'out', 'dataClass', { after: { kind: 'node', key: 'dataClass/a' }, limit: 501 }));
    expect(outgoing).toMatch(/SEARCH t USING INDEX triple_out \(subject=\? AND predicate=\? AND object_id>\?\)/);
    expect(outgoing).not.toMatch(/TEMP B-TREE/);
    expect(plan(store, arcRowsQuery('Breach', 'in', 'typeOf', { limit: 10, filter: [{ key: 'isSensitive', value: 'true' }] }))).toMatch(
      /SEARCH f (EXISTS )?USING (COVERING )?INDEX triple_out \(subject=\? AND predicate=\?/,
    );
  });
});
