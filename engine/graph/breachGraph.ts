import { createHash } from 'node:crypto';
import { dataClassLabel, type Breach } from '../../shared/api/index.ts';
import { CLASS_NODE, dataClassNode, domainNode, TYPE_NODES } from '../../shared/graph/nodeIds.ts';
import type { Triple, TripleStore } from './TripleStore.ts';

// The breach graph of CONTRACT.md ("Graph node query interface"). It is built from breach
// records only: the function reads the catalog fields by name, so a record that carries more
// (a local breach with the person's emails) cannot leak them into the graph.

export const BREACH_PROVENANCE = 'breach-catalog';

/** The graph and the catalog it was built from disagree: build it whole again. */
export class GraphOutOfStepError extends Error {
  override readonly name = 'GraphOutOfStepError';
}

/**
 * Strings by code point, as SQLite's BINARY collation orders UTF-8 (the store's indexes answer
 * "the first breach pointing at a node" in this order). `<` compares UTF-16 code units, which
 * puts U+10000 and above (surrogates) before U+E000–U+FFFF; the shift below undoes that.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return inCodePointOrder(x) - inCodePointOrder(y);
  }
  return a.length - b.length;
}

function inCodePointOrder(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Breach ids in the order the graph names nodes by. */
const byId = (a: { id: string }, b: { id: string }) => compareCodePoints(a.id, b.id);

type AddTriple = (subject: string, predicate: string, object: { id: string } | { value: string }) => void;

function collector(triples: Triple[]): AddTriple {
  return (subject, predicate, object) => triples.push({ subject, predicate, ...('id' in object ? { objectId: object.id } : { objectValue: object.value }), provenance: BREACH_PROVENANCE });
}

/** One breach's own arcs (not its domain's or data classes' names). */
function addBreach(add: AddTriple, breach: Breach): void {
  const id = breach.id;
  add(id, 'typeOf', { id: 'Breach' });
  add(id, 'name', { value: id });
  const domain = breach.domain.trim();
  if (domain !== '') add(id, 'domain', { id: domainNode(domain) });
  for (const name of breach.dataClasses) add(id, 'dataClass', { id: dataClassNode(name) });
  add(id, 'breachDate', { value: breach.breachDate });
  add(id, 'addedDate', { value: breach.addedDate });
  add(id, 'modifiedDate', { value: breach.modifiedDate });
  add(id, 'isSensitive', { value: String(breach.isSensitive) });
}

/**
 * The name a domain or data class node takes from `breach`, the first in id order that points
 * at it: a domain by its lower-case host name, a data class by the display name of the breach's
 * first spelling of it (spellings differ: `Email addresses`, `email addresses`, `email-addresses`).
 */
function nodeNameFrom(breach: Breach, node: string): string | undefined {
  const domain = breach.domain.trim();
  if (domain !== '' && domainNode(domain) === node) return domain.toLowerCase();
  const spelling = breach.dataClasses.find((name) => dataClassNode(name) === node);
  return spelling === undefined ? undefined : dataClassLabel(spelling);
}

function addNamedNode(add: AddTriple, node: string, name: string): void {
  add(node, 'typeOf', { id: node.startsWith('domain/') ? 'Domain' : 'DataClass' });
  add(node, 'name', { value: name });
}

/** The triples of the breach graph, in a deterministic order (breaches by id). */
export function breachTriples(breaches: readonly Breach[]): Triple[] {
  const triples: Triple[] = [];
  const add = collector(triples);
  for (const type of TYPE_NODES) add(type, 'typeOf', { id: CLASS_NODE });
  const named = new Map<string, string>();
  for (const breach of [...breaches].sort(byId)) {
    addBreach(add, breach);
    const domain = breach.domain.trim();
    const nodes = [...(domain !== '' ? [domainNode(domain)] : []), ...breach.dataClasses.map(dataClassNode)];
    for (const node of nodes) if (!named.has(node)) named.set(node, nodeNameFrom(breach, node)!);
  }
  // Domains first, then data classes, each in the order first met.
  for (const [node, name] of named) if (node.startsWith('domain/')) addNamedNode(add, node, name);
  for (const [node, name] of named) if (!node.startsWith('domain/')) addNamedNode(add, node, name);
  return triples;
}

/** What one breach became: its record now, or undefined when it left the catalog. */
export interface BreachChange {
  id: string;
  breach: Breach | undefined;
}

/** What {@link updateBreachGraph} will write, worked out from the graph as it stands. */
export interface BreachGraphPlan {
  changed: Map<string, Breach | undefined>;
  /** Every domain and data class node the changed breaches pointed at, before or after. */
  nodes: Set<string>;
  /** Each of those nodes still pointed at, and the breach (first by id) that names it. */
  namedBy: Map<string, string>;
  /**
   * The unchanged breaches whose records the update asks `breachOf` for (those naming a node),
   * so a caller whose catalog answers asynchronously (PostgreSQL) can read them first.
   */
  reads: string[];
}

export function planBreachGraphUpdate(store: TripleStore, changes: readonly BreachChange[]): BreachGraphPlan {
  const changed = new Map(changes.map((change) => [change.id, change.breach]));
  const nodes = new Set<string>();
  for (const [id, breach] of changed) {
    for (const node of [...store.step([id], 'out', 'domain'), ...store.step([id], 'out', 'dataClass')]) nodes.add(node);
    if (!breach) continue;
    const domain = breach.domain.trim();
    if (domain !== '') nodes.add(domainNode(domain));
    for (const name of breach.dataClasses) nodes.add(dataClassNode(name));
  }
  const namedBy = new Map<string, string>();
  for (const node of nodes) {
    const predicate = node.startsWith('domain/') ? 'domain' : 'dataClass';
    // Who points at the node once the changes are in: the unchanged breaches the store knows, and the changed ones now.
    let first: string | undefined;
    const consider = (id: string) => {
      if (first === undefined || compareCodePoints(id, first) < 0) first = id;
    };
    // The first unchanged breach the store has pointing at it: the index's order, past the changed ones.
    for (const id of store.firstPointing(node, predicate, changed.size + 1)) {
      if (changed.has(id)) continue;
      consider(id);
      break;
    }
    for (const [id, breach] of changed) if (breach && nodeNameFrom(breach, node) !== undefined) consider(id);
    if (first !== undefined) namedBy.set(node, first);
  }
  const reads = [...new Set([...namedBy.values()].filter((id) => !changed.has(id)))];
  return { changed, nodes, namedBy, reads };
}

/**
 * Brings the graph up to date with a few breaches changed, at the cost of those breaches: their
 * own arcs are replaced, and each domain and data class node they pointed at, before or after,
 * is named again from the first breach (in id order) that still points at it, or leaves the
 * graph with the last one. `breachOf` reads an unchanged breach's record (the catalog's). The
 * graph is then the one {@link replaceGraph} would build from the whole catalog (a property
 * test holds them equal), in one transaction and one new generation. `plan` is the one
 * {@link planBreachGraphUpdate} made of the same changes, when the caller needed it first (the
 * graph must not have changed since).
 */
export function updateBreachGraph(
  store: TripleStore,
  changes: readonly BreachChange[],
  breachOf: (id: string) => Breach | undefined,
  plan: BreachGraphPlan = planBreachGraphUpdate(store, changes),
): { triples: number } {
  if (changes.length === 0) return { triples: 0 };
  const triples: Triple[] = [];
  const add = collector(triples);
  for (const breach of plan.changed.values()) if (breach) addBreach(add, breach);
  for (const [node, first] of plan.namedBy) {
    const breach = plan.changed.has(first) ? plan.changed.get(first) : breachOf(first);
    const name = breach && nodeNameFrom(breach, node);
    if (name === undefined) throw new GraphOutOfStepError(`the graph names ${first} as pointing at ${node}, but the catalog's record of it does not`);
    addNamedNode(add, node, name);
  }
  return store.database.transaction(() => {
    const result = store.update([...plan.changed.keys(), ...plan.nodes], triples);
    // The fingerprint was of a whole build; the next whole build writes (one generation more).
    store.setMeta(FINGERPRINT_META, '');
    return result;
  })();
}

const FINGERPRINT_META = 'breach-graph-fingerprint';

/**
 * Makes the store hold the breach graph of `breaches`, in one transaction. When the graph would
 * not change (a sync that brought nothing new), nothing is written: the generation stays, so page
 * tokens handed out before remain valid.
 */
export function replaceGraph(store: TripleStore, breaches: readonly Breach[]): { changed: boolean; triples: number } {
  const triples = breachTriples(breaches);
  const hash = createHash('sha256');
  for (const t of triples) hash.update(`${t.subject}\u0000${t.predicate}\u0000${t.objectId ?? ''}\u0000${t.objectValue ?? ''}\u0001`);
  const fingerprint = hash.digest('base64url');
  if (store.getMeta(FINGERPRINT_META) === fingerprint) return { changed: false, triples: triples.length };
  store.database.transaction(() => {
    store.replace(triples);
    store.setMeta(FINGERPRINT_META, fingerprint);
  })();
  return { changed: true, triples: triples.length };
}
