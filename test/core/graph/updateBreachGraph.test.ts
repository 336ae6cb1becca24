import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planBreachGraphUpdate, replaceGraph, updateBreachGraph, type BreachChange } from '../../../engine/graph/breachGraph.ts';
import { TripleStore } from '../../../engine/graph/TripleStore.ts';
import type { Breach } from '../../../shared/api/index.ts';
import { breach } from './helpers.ts';

// Updating the graph breach by breach must give exactly the graph a whole build gives: the same
// triples and the same derived node rows (names, types), whatever was added, changed or removed.

/** Every triple and node row, in one order, to compare two stores. */
function contents(store: TripleStore) {
  return {
    triples: store.database.prepare('SELECT subject, predicate, object_id, object_value, provenance FROM triple ORDER BY 1, 2, 3, 4').all(),
    nodes: store.database.prepare('SELECT dcid, name, types FROM node ORDER BY dcid').all(),
  };
}

function wholeBuild(catalog: Map<string, Breach>) {
  const store = TripleStore.open(':memory:');
  replaceGraph(store, [...catalog.values()]);
  const built = contents(store);
  store.close();
  return built;
}

/** Small pools, so breaches share domains and data classes (in different spellings) and ids sort in interesting orders. */
// Ids beyond the BMP (𝒳, a surrogate pair in UTF-16) and just below it (\uFF21) order differently by code unit and by code point.
const ids = fc.constantFrom('Adobe', 'adobe2', 'Zynga', 'B', 'a', 'Ö-shop', 'LinkedIn', 'x1', '𝒳-site', '\uFF21-site');
const domains = fc.constantFrom('adobe.com', 'Adobe.com ', '', 'zynga.com', 'shop.example', ' ');
const classes = fc.constantFrom('Email addresses', 'email addresses', 'email-addresses', 'Passwords', 'Password hints', 'IP addresses', '???', "Mothers' maiden names");
const record = fc.record({
  id: ids,
  domain: domains,
  dataClasses: fc.uniqueArray(classes, { maxLength: 4 }),
  isSensitive: fc.boolean(),
  breachDate: fc.constantFrom('2013-10-04', '2019-01-01'),
});
const toBreach = (r: { id: string; domain: string; dataClasses: string[]; isSensitive: boolean; breachDate: string }): Breach => breach(r.id, r);
/** A step: put a breach (add or change), or remove one by id. */
const step = fc.oneof(
  record.map((r) => ({ put: toBreach(r) })),
  ids.map((id) => ({ remove: id })),
);

describe('updating the breach graph breach by breach', () => {
  it('gives the graph a whole build gives, after any sequence of puts and removals', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 6 }), fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), (start, batches) => {
        const catalog = new Map<string, Breach>(start.map((r) => [r.id, toBreach(r)]));
        const store = TripleStore.open(':memory:');
        try {
          replaceGraph(store, [...catalog.values()]);
          for (const batch of batches) {
            const changed = new Set<string>();
            for (const s of batch) {
              if ('put' in s) catalog.set(s.put.id, s.put);
              else catalog.delete(s.remove);
              changed.add('put' in s ? s.put.id : s.remove);
            }
            const changes: BreachChange[] = [...changed].map((id) => ({ id, breach: catalog.get(id) }));
            // Only the records the plan names are asked for (what an asynchronous catalog reads first).
            const naming = new Set(planBreachGraphUpdate(store, changes).reads);
            updateBreachGraph(store, changes, (id) => {
              expect(naming.has(id)).toBe(true);
              return catalog.get(id);
            });
            expect(contents(store)).toEqual(wholeBuild(catalog));
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it("orders ids by code point, as the store's index does, so the node names agree beyond the BMP", () => {
    // By UTF-16 code unit 𝒳 (U+1D4B3, D835 DCB3) sorts before Ａ (U+FF21); by code point after it.
    const catalog = new Map([
      ['0-first', breach('0-first', { dataClasses: ['passwords'] })],
      ['\u{1D4B3}-site', breach('\u{1D4B3}-site', { dataClasses: ['PASSWORDS'] })],
      ['\uFF21-site', breach('\uFF21-site', { dataClasses: ['Passwords'] })],
    ]);
    const store = TripleStore.open(':memory:');
    replaceGraph(store, [...catalog.values()]);
    catalog.delete('0-first');
    updateBreachGraph(store, [{ id: '0-first', breach: undefined }], (id) => catalog.get(id));
    expect(contents(store)).toEqual(wholeBuild(catalog));
    expect(store.describe(['dataClass/passwords'])[0]!.name).toBe('Passwords');
    store.close();
  });

  it('starts a new generation, so page tokens of the older graph are refused', () => {
    const store = TripleStore.open(':memory:');
    const adobe = breach('Adobe');
    replaceGraph(store, [adobe]);
    const before = store.generation();
    updateBreachGraph(store, [{ id: 'Zynga', breach: breach('Zynga', { domain: 'zynga.com' }) }], (id) => (id === 'Adobe' ? adobe : undefined));
    expect(store.generation()).toBe(before + 1);
    store.close();
  });

  it('names a node after the first breach in id order that points at it, reading that breach from the catalog', () => {
    const store = TripleStore.open(':memory:');
    const catalog = new Map([
      ['B', breach('B', { dataClasses: ['email addresses'] })],
      ['C', breach('C', { dataClasses: ['Email addresses'] })],
    ]);
    replaceGraph(store, [...catalog.values()]);
    const read: string[] = [];
    // Removing B: C now names the node, and is read from the catalog to learn its spelling.
    catalog.delete('B');
    updateBreachGraph(store, [{ id: 'B', breach: undefined }], (id) => (read.push(id), catalog.get(id)));
    expect(read).toEqual(['C']);
    expect(store.describe(['dataClass/email-addresses'])).toEqual([{ dcid: 'dataClass/email-addresses', name: 'Email addresses', types: ['DataClass'] }]);
    store.close();
  });

  it('refuses, writing nothing, when the catalog no longer holds a breach the graph names', () => {
    const store = TripleStore.open(':memory:');
    replaceGraph(store, [breach('B', { dataClasses: ['Passwords'] }), breach('C', { dataClasses: ['Passwords'] })]);
    const before = contents(store);
    const generation = store.generation();
    // B leaves, and the catalog has lost C too without saying so: the graph is out of step.
    expect(() => updateBreachGraph(store, [{ id: 'B', breach: undefined }], () => undefined)).toThrow(/out of step|does not/);
    expect(contents(store)).toEqual(before);
    expect(store.generation()).toBe(generation);
    store.close();
  });

  it('refuses triples of a subject not among those updated', () => {
    const store = TripleStore.open(':memory:');
    expect(() => store.update(['A'], [{ subject: 'B', predicate: 'name', objectValue: 'B', provenance: 'x' }])).toThrow(/not among the subjects updated/);
    store.close();
  });
});
