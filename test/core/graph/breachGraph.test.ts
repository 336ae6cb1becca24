import { describe, expect, it } from 'vitest';
import { breachTriples, replaceGraph } from '../../../engine/graph/breachGraph.ts';
import { dataClassSlug } from '../../../shared/graph/nodeIds.ts';
import { keepGraphCurrent, type GraphSyncReport } from '../../../electron/core/graph/keepGraphCurrent.ts';
import { NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import { Emitter } from '../../../shared/base/Emitter.ts';
import { breach, CATALOG, memoryGraph, P } from './helpers.ts';

describe('breach graph (CONTRACT.md table)', () => {
  it('slugs data classes: lower case, runs of non-alphanumerics to "-", trimmed', () => {
    expect(dataClassSlug('Email addresses')).toBe('email-addresses');
    expect(dataClassSlug('IP addresses')).toBe('ip-addresses');
    expect(dataClassSlug("  Mothers' maiden -- names!! ")).toBe('mothers-maiden-names');
    expect(dataClassSlug('Auth tokens (OAuth 2.0)')).toBe('auth-tokens-oauth-2-0');
    expect(dataClassSlug('Données personnelles')).toBe('données-personnelles');
    expect(dataClassSlug('???')).toBe('x3f3f3f');
  });

  it('makes exactly the triples of the table for a breach', () => {
    const n = (subject: string, predicate: string, objectId: string) => ({ subject, predicate, objectId, provenance: P });
    const l = (subject: string, predicate: string, objectValue: string) => ({ subject, predicate, objectValue, provenance: P });
    expect(breachTriples([CATALOG[0]!])).toEqual([
      n('Breach', 'typeOf', 'Class'),
      n('Domain', 'typeOf', 'Class'),
      n('DataClass', 'typeOf', 'Class'),
      n('Adobe', 'typeOf', 'Breach'),
      l('Adobe', 'name', 'Adobe'),
      n('Adobe', 'domain', 'domain/adobe.com'),
      n('Adobe', 'dataClass', 'dataClass/email-addresses'),
      n('Adobe', 'dataClass', 'dataClass/password-hints'),
      n('Adobe', 'dataClass', 'dataClass/passwords'),
      l('Adobe', 'breachDate', '2013-10-04'),
      l('Adobe', 'addedDate', '2013-12-04T00:00:00Z'),
      l('Adobe', 'modifiedDate', '2022-05-15T23:52:00Z'),
      l('Adobe', 'isSensitive', 'false'),
      n('domain/adobe.com', 'typeOf', 'Domain'),
      l('domain/adobe.com', 'name', 'adobe.com'),
      n('dataClass/email-addresses', 'typeOf', 'DataClass'),
      l('dataClass/email-addresses', 'name', 'Email addresses'),
      n('dataClass/password-hints', 'typeOf', 'DataClass'),
      l('dataClass/password-hints', 'name', 'Password hints'),
      n('dataClass/passwords', 'typeOf', 'DataClass'),
      l('dataClass/passwords', 'name', 'Passwords'),
    ]);
  });

  it('skips an empty domain; one node per domain and data class whatever the case', () => {
    const triples = breachTriples([
      breach('B', { domain: 'Shop.Example', dataClasses: ['email addresses'] }),
      breach('A', { domain: 'shop.example', dataClasses: ['Email Addresses'] }),
      breach('C', { domain: '' }),
    ]);
    expect(triples.filter((t) => t.subject === 'C' && t.predicate === 'domain')).toEqual([]);
    expect(triples.filter((t) => t.subject.startsWith('domain/'))).toHaveLength(2);
    // The first spelling in id order names the node.
    expect(triples.find((t) => t.subject === 'dataClass/email-addresses' && t.predicate === 'name')?.objectValue).toBe('Email Addresses');
  });

  it('replaces in one transaction and only when the graph changes', () => {
    const store = memoryGraph();
    expect(replaceGraph(store, CATALOG)).toEqual({ changed: true, triples: 43 });
    const generation = store.generation();
    expect(replaceGraph(store, [...CATALOG].reverse()).changed).toBe(false);
    expect(store.generation()).toBe(generation);
    expect(replaceGraph(store, CATALOG.slice(1)).changed).toBe(true);
    expect(store.generation()).toBe(generation + 1);

    const before = store.database.prepare('SELECT count(*) FROM triple').pluck().get();
    const broken = { ...breach('Broken'), dataClasses: null } as unknown as (typeof CATALOG)[number];
    expect(() => replaceGraph(store, [...CATALOG, broken])).toThrow();
    expect(store.database.prepare('SELECT count(*) FROM triple').pluck().get()).toBe(before);
  });
});

const APPLIED: GraphSyncReport = { status: 'ok', pull: { status: 'applied' } };

describe('keepGraphCurrent', () => {
  it('builds now, then after every successful sync that applied a snapshot; a failed rebuild keeps the graph', () => {
    const store = memoryGraph();
    const syncs = new Emitter<GraphSyncReport>();
    let breaches = CATALOG.slice(0, 1);
    const errors: unknown[] = [];
    const subscription = keepGraphCurrent(store, { onDidSync: syncs.event, readBreaches: () => breaches }, (error) => errors.push(error));
    const engine = new NodeQueryEngine(store);
    const count = () => engine.query({ nodes: ['Breach'], property: '<-typeOf' }).data.Breach!.arcs?.typeOf?.nodes.length;
    expect(count()).toBe(1);

    breaches = CATALOG;
    syncs.fire({ status: 'error' });
    expect(count()).toBe(1);
    syncs.fire(APPLIED);
    expect(count()).toBe(3);

    breaches = [{ ...breach('Broken'), dataClasses: null } as unknown as (typeof CATALOG)[number]];
    syncs.fire(APPLIED);
    expect(errors).toHaveLength(1);
    expect(count()).toBe(3);

    subscription.dispose();
    breaches = [];
    syncs.fire(APPLIED);
    expect(count()).toBe(3);
  });

  it('reads and rewrites nothing after a sync that changed no breach: a 304, a push of toggles', () => {
    const store = memoryGraph();
    const syncs = new Emitter<GraphSyncReport>();
    let reads = 0;
    keepGraphCurrent(store, {
      onDidSync: syncs.event,
      readBreaches: () => {
        reads++;
        return CATALOG;
      },
    });
    expect(reads).toBe(1);
    syncs.fire({ status: 'ok', pull: { status: 'unchanged' } });
    syncs.fire({ status: 'ok', pull: undefined });
    syncs.fire({ status: 'ok', pull: { status: 'stale' } });
    syncs.fire({ status: 'backoff', pull: { status: 'applied' } });
    expect(reads).toBe(1);
    // A 304 whose headers cleared the demo breaches changed them: rebuilt.
    syncs.fire({ status: 'ok', pull: { status: 'unchanged', demoCleared: 3 } });
    expect(reads).toBe(2);
    syncs.fire(APPLIED);
    expect(reads).toBe(3);
  });
});
