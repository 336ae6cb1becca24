import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Direction, FilterTerm } from '../../shared/graph/index.ts';
import { openGraphDatabase } from './graphDatabase.ts';

/** One arc: a node object (`objectId`) or a literal (`objectValue`), never both. */
export interface Triple {
  subject: string;
  predicate: string;
  objectId?: string | undefined;
  objectValue?: string | undefined;
  provenance: string;
}

/** Where a row sits in an arc's order: literals (by value) before nodes (by dcid). */
export interface ItemKey {
  kind: 'literal' | 'node';
  key: string;
}

/** One value of an arc as stored: the far node (with its name and types) or a literal. */
export interface ArcRow {
  kind: 'literal' | 'node';
  /** The far node's dcid, or the literal. */
  key: string;
  provenance: string;
  name: string | undefined;
  types: string[];
}

export interface NodeRow {
  dcid: string;
  name: string | undefined;
  types: string[];
}

interface RawRow {
  id: string | null;
  value: string | null;
  provenance: string;
  name: string | null;
  types: string | null;
}

const MAX_CACHED_STATEMENTS = 128;

/**
 * A triple store in SQLite: the graph the node query engine answers from. Writes replace the
 * whole graph, or the triples of some subjects, in one transaction; every write starts a new generation, which page tokens
 * carry so a page of an older graph is never stitched onto a newer one.
 */
export class TripleStore {
  readonly database: Database.Database;
  readonly #statements = new Map<string, Database.Statement>();
  #secret: Buffer | undefined;
  /** Read on every query and bound into every token; this store is the graph's only writer. */
  #generation: number | undefined;

  constructor(database: Database.Database) {
    this.database = database;
  }

  /** A store over its own database file (see `graphDatabasePath`), or in memory. */
  static open(file = ':memory:'): TripleStore {
    return new TripleStore(openGraphDatabase(file));
  }

  /** Replaces every triple (duplicates collapse) and starts a new generation. */
  replace(triples: Iterable<Triple>): { triples: number; nodes: number } {
    return this.database.transaction(() => {
      this.database.exec('DELETE FROM triple; DELETE FROM node;');
      const inserted = this.#insert(triples);
      const nodes = this.database
        .prepare(`INSERT INTO node (dcid, name, types) ${nodeRowsOf('SELECT subject AS id FROM triple UNION SELECT object_id FROM triple WHERE object_id IS NOT NULL')}`)
        .run().changes;
      this.#nextGeneration();
      return { triples: inserted, nodes };
    })();
  }

  /**
   * Replaces the triples of some subjects only (every triple whose subject is in `subjects`
   * goes; `triples`, whose subjects must be among them, come in) and starts a new generation:
   * the graph a whole {@link replace} would give, at the cost of the subjects changed. Their
   * node rows are derived again.
   */
  update(subjects: readonly string[], triples: readonly Triple[]): { triples: number } {
    const allowed = new Set(subjects);
    for (const triple of triples) {
      if (!allowed.has(triple.subject)) throw new TypeError(`triple ${triple.subject} ${triple.predicate}: its subject is not among the subjects updated`);
    }
    return this.database.transaction(() => {
      const list = JSON.stringify(subjects);
      this.#statement('DELETE FROM triple WHERE subject IN (SELECT value FROM json_each(?))').run(list);
      const inserted = this.#insert(triples);
      // A node's row (name, types) comes from its own triples alone: only the subjects' rows change.
      this.#statement('DELETE FROM node WHERE dcid IN (SELECT value FROM json_each(?))').run(list);
      this.#statement(`INSERT INTO node (dcid, name, types) ${nodeRowsOf('SELECT DISTINCT value AS id FROM json_each(?)')}`).run(list);
      this.#nextGeneration();
      return { triples: inserted };
    })();
  }

  /** Inserts triples, duplicates collapsing; answers how many went in. */
  #insert(triples: Iterable<Triple>): number {
    const seen = new Set<string>();
    const insert = this.#statement('INSERT INTO triple (subject, predicate, object_id, object_value, provenance) VALUES (?, ?, ?, ?, ?)');
    for (const triple of triples) {
      const isNode = triple.objectId !== undefined;
      if (isNode === (triple.objectValue !== undefined)) {
        throw new TypeError(`triple ${triple.subject} ${triple.predicate} needs exactly one of objectId and objectValue`);
      }
      const object = isNode ? triple.objectId! : triple.objectValue!;
      const identity = `${triple.subject}\u0000${triple.predicate}\u0000${isNode ? 'n' : 'l'}\u0000${object}`;
      if (seen.has(identity)) continue;
      seen.add(identity);
      insert.run(triple.subject, triple.predicate, isNode ? object : null, isNode ? null : object, triple.provenance);
    }
    return seen.size;
  }

  #nextGeneration(): void {
    this.#setMeta('generation', String(this.generation() + 1));
    this.#generation = undefined;
  }

  /** Increases on every replace. */
  generation(): number {
    this.#generation ??= Number(this.getMeta('generation') ?? 0);
    return this.#generation;
  }

  /** The key that signs this store's page tokens; made once, kept with the graph. */
  tokenSecret(): Buffer {
    if (!this.#secret) {
      const stored = this.getMeta('token-secret');
      if (stored) {
        this.#secret = Buffer.from(stored, 'hex');
      } else {
        this.#secret = randomBytes(32);
        this.#setMeta('token-secret', this.#secret.toString('hex'));
      }
    }
    return this.#secret;
  }

  getMeta(key: string): string | undefined {
    const row = this.#statement('SELECT value FROM graph_meta WHERE key = ?').get(key) as { value: string } | undefined;
    return row?.value;
  }

  setMeta(key: string, value: string): void {
    if (key === 'generation' || key === 'token-secret') throw new Error(`graph meta "${key}" is owned by the store`);
    this.#setMeta(key, value);
  }

  #setMeta(key: string, value: string): void {
    this.#statement('INSERT INTO graph_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
  }

  /** The distinct labels of a node's arcs in one direction, in order. */
  labels(node: string, direction: Direction): string[] {
    // A loose index scan: one seek per distinct label, so a type node with 100,000 incoming
    // `typeOf` arcs costs as little as one with three.
    const column = direction === 'out' ? 'subject' : 'object_id';
    const next = this.#statement(`SELECT predicate FROM triple WHERE ${column} = ? AND predicate > ? ORDER BY predicate LIMIT 1`).pluck();
    const labels: string[] = [];
    let last = '';
    for (;;) {
      const label = next.get(node, last) as string | undefined;
      if (label === undefined) return labels;
      labels.push(label);
      last = label;
    }
  }

  /**
   * The values of one arc of `node`, in answer order, after `after` (exclusive), at most
   * `limit`. With a filter, only node values that have every `key:value` as an arc (to a node
   * with that dcid, or a literal with that value) are returned.
   */
  arcRows(node: string, direction: Direction, predicate: string, options: { after?: ItemKey | undefined; limit: number; filter?: readonly FilterTerm[] }): ArcRow[] {
    const { sql, params } = arcRowsQuery(node, direction, predicate, options);
    return (this.#statement(sql).all(...params) as RawRow[]).map(toArcRow);
  }

  /** The nodes one `predicate` arc away from any of `frontier`, in no order, possibly repeated. */
  step(frontier: readonly string[], direction: Direction, predicate: string): string[] {
    // One indexed seek per node: cheaper than handing SQLite the frontier as JSON (json_each
    // costs ~10 µs a call, a seek ~1.5 µs), and a walk visits each node once anyway.
    const next = this.#statement(
      direction === 'out' ? 'SELECT object_id FROM triple WHERE subject = ? AND predicate = ? AND object_id IS NOT NULL' : 'SELECT subject FROM triple WHERE object_id = ? AND predicate = ?',
    ).pluck();
    const reached: string[] = [];
    for (const node of frontier) for (const id of next.all(node, predicate) as string[]) reached.push(id);
    return reached;
  }

  /** The first `limit` subjects with a `predicate` arc to `node`, by dcid (SQLite's BINARY order: code points). */
  firstPointing(node: string, predicate: string, limit: number): string[] {
    return this.#statement('SELECT subject FROM triple WHERE object_id = ? AND predicate = ? ORDER BY subject LIMIT ?').pluck().all(node, predicate, limit) as string[];
  }

  /** Name and types of `ids` that pass `filter`, ordered by dcid. */
  describe(ids: readonly string[], filter: readonly FilterTerm[] = []): NodeRow[] {
    const params: (string | number)[] = [JSON.stringify(ids)];
    const sql =
      "SELECT r.value AS id, NULL AS value, '' AS provenance, n.name, n.types FROM json_each(?) r LEFT JOIN node n ON n.dcid = r.value WHERE 1" +
      filterSql('r.value', filter, params) +
      ' ORDER BY r.value';
    return (this.#statement(sql).all(...params) as RawRow[]).map((row) => {
      const { key, name, types } = toArcRow(row);
      return { dcid: key, name, types };
    });
  }

  close(): void {
    this.#statements.clear();
    if (this.database.open) this.database.close();
  }

  /** SQL varies only with a query's shape (direction, cursor kind, filter length), so a small cache holds every variant in use. */
  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.delete(this.#statements.keys().next().value!);
      statement = this.database.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * The derived row (name, types) of each node `ids` (a query with one column, `id`) yields: its
 * first name literal and its types in order; a node with neither has no row.
 */
function nodeRowsOf(ids: string): string {
  return `SELECT id, name, types FROM (
            SELECT ids.id AS id,
              (SELECT object_value FROM triple WHERE subject = ids.id AND predicate = 'name' AND object_id IS NULL ORDER BY object_value LIMIT 1) AS name,
              (SELECT json_group_array(object_id) FROM
                (SELECT object_id FROM triple WHERE subject = ids.id AND predicate = 'typeOf' AND object_id IS NOT NULL ORDER BY object_id)) AS types
            FROM (${ids}) AS ids
          ) WHERE name IS NOT NULL OR types <> '[]'`;
}

/** The SQL of {@link TripleStore.arcRows}; exported so tests can check its query plan. */
export function arcRowsQuery(
  node: string,
  direction: Direction,
  predicate: string,
  options: { after?: ItemKey | undefined; limit: number; filter?: readonly FilterTerm[] },
): { sql: string; params: (string | number)[] } {
  const filter = options.filter ?? [];
  const after = options.after;
  const params: (string | number)[] = [node, predicate];
  let sql: string;
  if (direction === 'out') {
    sql = `SELECT t.object_id AS id, t.object_value AS value, t.provenance, n.name, n.types
           FROM triple t LEFT JOIN node n ON n.dcid = t.object_id
           WHERE t.subject = ? AND t.predicate = ?`;
    if (after?.kind === 'literal') {
      sql += ' AND (t.object_id IS NOT NULL OR t.object_value > ?)';
      params.push(after.key);
    } else if (after?.kind === 'node') {
      sql += ' AND t.object_id > ?';
      params.push(after.key);
    }
    sql += filterSql('t.object_id', filter, params);
    sql += ' ORDER BY t.object_id, t.object_value LIMIT ?';
  } else {
    sql = `SELECT t.subject AS id, NULL AS value, t.provenance, n.name, n.types
           FROM triple t LEFT JOIN node n ON n.dcid = t.subject
           WHERE t.object_id = ? AND t.predicate = ?`;
    // Incoming values are always nodes, so a literal cursor means "from the start".
    if (after?.kind === 'node') {
      sql += ' AND t.subject > ?';
      params.push(after.key);
    }
    sql += filterSql('t.subject', filter, params);
    sql += ' ORDER BY t.subject LIMIT ?';
  }
  params.push(options.limit);
  return { sql, params };
}

function filterSql(column: string, filter: readonly FilterTerm[], params: (string | number)[]): string {
  let sql = '';
  for (const term of filter) {
    sql += ` AND EXISTS (SELECT 1 FROM triple f WHERE f.subject = ${column} AND f.predicate = ? AND (f.object_id = ? OR (f.object_id IS NULL AND f.object_value = ?)))`;
    params.push(term.key, term.value, term.value);
  }
  return sql;
}

function toArcRow(row: RawRow): ArcRow {
  return {
    kind: row.id === null ? 'literal' : 'node',
    key: row.id ?? row.value!,
    provenance: row.provenance,
    name: row.name ?? undefined,
    types: row.types && row.types !== '[]' ? (JSON.parse(row.types) as string[]) : [],
  };
}
