import { createHash } from 'node:crypto';
import { dataClassKey, dataClassLabel, type Breach } from '../../shared/api/index.ts';
import type { Triple, TripleStore } from './TripleStore.ts';

// The breach graph of CONTRACT.md ("Graph node query interface"). It is built from breach
// records only: the function reads the catalog fields by name, so a record that carries more
// (a local breach with the person's emails) cannot leak them into the graph.

export const BREACH_PROVENANCE = 'breach-catalog';
export const TYPE_NODES = ['Breach', 'Domain', 'DataClass'] as const;
export const CLASS_NODE = 'Class';

/**
 * `Email addresses` → `email-addresses`: the shared data class identity ({@link dataClassKey}),
 * so a node is the class however a breach spells it.
 */
export function dataClassSlug(name: string): string {
  // A blank name has no identity; it still gets a node rather than `dataClass/`.
  return dataClassKey(name) || 'x';
}

export function dataClassNode(name: string): string {
  return `dataClass/${dataClassSlug(name)}`;
}

/** Host names have no case, so `Adobe.com` and `adobe.com` are one node. */
export function domainNode(domain: string): string {
  return `domain/${domain.trim().toLowerCase()}`;
}

/** The triples of the breach graph, in a deterministic order (breaches by id). */
export function breachTriples(breaches: readonly Breach[]): Triple[] {
  const triples: Triple[] = [];
  const add = (subject: string, predicate: string, object: { id: string } | { value: string }) =>
    triples.push({ subject, predicate, ...('id' in object ? { objectId: object.id } : { objectValue: object.value }), provenance: BREACH_PROVENANCE });

  for (const type of TYPE_NODES) add(type, 'typeOf', { id: CLASS_NODE });
  const domains = new Map<string, string>();
  const dataClasses = new Map<string, string>();
  for (const breach of [...breaches].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const id = breach.id;
    add(id, 'typeOf', { id: 'Breach' });
    add(id, 'name', { value: id });
    const domain = breach.domain.trim();
    if (domain !== '') {
      const node = domainNode(domain);
      if (!domains.has(node)) domains.set(node, domain.toLowerCase());
      add(id, 'domain', { id: node });
    }
    for (const name of breach.dataClasses) {
      const node = dataClassNode(name);
      // Spellings differ across breaches (`Email addresses`, `email addresses`, `email-addresses`); the
      // first, in id order, names the node, a slug by the display name it stands for.
      if (!dataClasses.has(node)) dataClasses.set(node, dataClassLabel(name));
      add(id, 'dataClass', { id: node });
    }
    add(id, 'breachDate', { value: breach.breachDate });
    add(id, 'addedDate', { value: breach.addedDate });
    add(id, 'modifiedDate', { value: breach.modifiedDate });
    add(id, 'isSensitive', { value: String(breach.isSensitive) });
  }
  for (const [node, name] of domains) {
    add(node, 'typeOf', { id: 'Domain' });
    add(node, 'name', { value: name });
  }
  for (const [node, name] of dataClasses) {
    add(node, 'typeOf', { id: 'DataClass' });
    add(node, 'name', { value: name });
  }
  return triples;
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
