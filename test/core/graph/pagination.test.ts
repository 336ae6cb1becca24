import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeResponse } from '../../../shared/graph/index.ts';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import { mergeNodeResponses } from '../../../electron/core/graph/mergeResponses.ts';
import { GraphQueryError, MAX_HOPS, NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import type { Triple } from '../../../engine/graph/TripleStore.ts';
import { breach, memoryGraph, P } from './helpers.ts';

const FIVE = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((id) => breach(id));
const item = (id: string) => ({ name: id, types: ['Breach'], dcid: id, provenanceId: P });

function allPages(engine: NodeQueryEngine, request: { nodes: string[]; property: string }, pageSize: number): NodeResponse[] {
  const pages = [engine.query(request, { pageSize })];
  while (pages.at(-1)!.nextToken) pages.push(engine.query({ ...request, nextToken: pages.at(-1)!.nextToken }, { pageSize }));
  return pages;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GraphQueryError);
    expect((error as GraphQueryError).field).toBe('nextToken');
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('pagination', () => {
  it('pages <-typeOf of Breach two at a time, every queried node on every page', () => {
    const store = memoryGraph();
    replaceGraph(store, FIVE);
    const engine = new NodeQueryEngine(store);
    const pages = allPages(engine, { nodes: ['Breach', 'Nope'], property: '<-typeOf' }, 2);
    expect(pages.map((page) => ({ ...page, nextToken: page.nextToken ? 'token' : undefined }))).toEqual([
      { data: { Breach: { arcs: { typeOf: { nodes: [item('Alpha'), item('Bravo')] } } }, Nope: {} }, nextToken: 'token' },
      { data: { Breach: { arcs: { typeOf: { nodes: [item('Charlie'), item('Delta')] } } }, Nope: {} }, nextToken: 'token' },
      { data: { Breach: { arcs: { typeOf: { nodes: [item('Echo')] } } }, Nope: {} }, nextToken: undefined },
    ]);
    expect(mergeNodeResponses(pages)).toEqual(engine.query({ nodes: ['Breach', 'Nope'], property: '<-typeOf' }));
  });

  it('a page that ends exactly at the last item carries no token', () => {
    const store = memoryGraph();
    replaceGraph(store, FIVE);
    const engine = new NodeQueryEngine(store);
    expect(engine.query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 5 }).nextToken).toBeUndefined();
    expect(engine.query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 4 }).nextToken).toBeDefined();
  });

  it('crosses arcs, nodes and the literal/node boundary; merged pages equal the whole answer for any page size', () => {
    const store = memoryGraph();
    replaceGraph(store, [...FIVE, breach('Foxtrot', { dataClasses: ['Email addresses', 'Passwords', 'Usernames'] })]);
    const engine = new NodeQueryEngine(store);
    const requests = [
      { nodes: ['Alpha', 'Foxtrot', 'Bravo'], property: '->*' },
      { nodes: ['dataClass/passwords', 'Breach', 'dataClass/usernames'], property: '<-*' },
      { nodes: ['Alpha', 'Echo'], property: '->[dataClass, name, typeOf]' },
      { nodes: ['Class', 'Breach'], property: '<-typeOf+' },
    ];
    fc.assert(
      fc.property(fc.constantFrom(...requests), fc.integer({ min: 1, max: 12 }), (request, pageSize) => {
        const pages = allPages(engine, request, pageSize);
        for (const page of pages) {
          const items = Object.values(page.data).flatMap((data) => Object.values(data.arcs ?? {}).flatMap((arc) => arc.nodes));
          expect(items.length).toBeLessThanOrEqual(pageSize);
          if (page.nextToken) expect(items.length).toBe(pageSize);
        }
        expect(mergeNodeResponses(pages)).toEqual(engine.query(request, { pageSize: 10_000 }));
      }),
    );
  });

  it('pages a mixed arc: literals first (by value), then nodes (by dcid)', () => {
    const store = memoryGraph();
    store.replace([
      { subject: 's', predicate: 'p', objectId: 'a', provenance: 'x' },
      { subject: 's', predicate: 'p', objectValue: 'z', provenance: 'x' },
      { subject: 's', predicate: 'p', objectValue: 'b', provenance: 'x' },
      { subject: 's', predicate: 'p', objectId: 'c', provenance: 'x' },
    ]);
    const engine = new NodeQueryEngine(store);
    const pages = allPages(engine, { nodes: ['s'], property: '->p' }, 1);
    expect(pages.map((page) => page.data.s!.arcs!.p!.nodes[0])).toEqual([
      { provenanceId: 'x', value: 'b' },
      { provenanceId: 'x', value: 'z' },
      { dcid: 'a', provenanceId: 'x' },
      { dcid: 'c', provenanceId: 'x' },
    ]);
  });

  it('accepts the token with the nodes in another order or the expression spelled differently', () => {
    const store = memoryGraph();
    replaceGraph(store, FIVE);
    const engine = new NodeQueryEngine(store);
    const first = engine.query({ nodes: ['Breach', 'Class'], property: '<-typeOf' }, { pageSize: 2 });
    const second = engine.query({ nodes: ['Class', 'Breach', 'Class'], property: ' <- typeOf ', nextToken: first.nextToken }, { pageSize: 2 });
    expect(second.data.Breach).toEqual({ arcs: { typeOf: { nodes: [item('Charlie'), item('Delta')] } } });
  });

  it('refuses tampered, foreign, stale and other stores’ tokens', () => {
    const store = memoryGraph();
    replaceGraph(store, FIVE);
    const engine = new NodeQueryEngine(store);
    const token = engine.query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 2 }).nextToken!;
    const [body, mac] = token.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as { c: [number, string, string, string] };
    payload.c[3] = 'Alpha';
    const edited = Buffer.from(JSON.stringify(payload)).toString('base64url') + '.' + mac;
    const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);

    expect(refusal(() => engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: edited }))).toBe('nextToken was altered or issued by another service');
    expect(refusal(() => engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: flipped }))).toBe('nextToken was altered or issued by another service');
    expect(refusal(() => engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: 'garbage' }))).toBe('nextToken is not a token this service issued');
    expect(refusal(() => engine.query({ nodes: ['Breach'], property: '<-dataClass', nextToken: token }))).toBe(
      'nextToken belongs to another query; send the same nodes and property as the first request',
    );
    expect(refusal(() => engine.query({ nodes: ['Breach', 'Class'], property: '<-typeOf', nextToken: token }))).toMatch(/belongs to another query/);

    const other = memoryGraph();
    replaceGraph(other, FIVE);
    expect(refusal(() => new NodeQueryEngine(other).query({ nodes: ['Breach'], property: '<-typeOf', nextToken: token }))).toBe('nextToken was altered or issued by another service');

    replaceGraph(store, [...FIVE, breach('Golf')]);
    expect(refusal(() => engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: token }))).toBe('the graph changed since this nextToken was issued; start the query again');
  });

  it('keeps tokens valid across a rebuild that changes nothing', () => {
    const store = memoryGraph();
    replaceGraph(store, FIVE);
    const engine = new NodeQueryEngine(store);
    const token = engine.query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 2 }).nextToken!;
    expect(replaceGraph(store, [...FIVE].reverse()).changed).toBe(false);
    expect(engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: token }, { pageSize: 2 }).data.Breach!.arcs!.typeOf!.nodes).toHaveLength(2);
  });
});

describe('label+ over cycles and long chains', () => {
  const arc = (subject: string, object: string): Triple => ({ subject, predicate: 'next', objectId: object, provenance: 't' });

  it('terminates on cycles and self-loops; the start node is never its own answer', () => {
    const store = memoryGraph();
    store.replace([arc('a', 'b'), arc('b', 'c'), arc('c', 'a'), arc('c', 'b'), arc('d', 'd'), arc('b', 'e'), arc('e', 'b')]);
    const engine = new NodeQueryEngine(store);
    expect(engine.query({ nodes: ['a', 'd'], property: '->next+' })).toEqual({
      data: { a: { arcs: { 'next+': { nodes: [{ dcid: 'b' }, { dcid: 'c' }, { dcid: 'e' }] } } }, d: {} },
    });
    expect(engine.query({ nodes: ['b'], property: '<-next+' })).toEqual({
      data: { b: { arcs: { 'next+': { nodes: [{ dcid: 'a' }, { dcid: 'c' }, { dcid: 'e' }] } } } },
    });
  });

  it(`stops after ${MAX_HOPS} hops in both directions`, () => {
    const store = memoryGraph();
    store.replace(Array.from({ length: 14 }, (_, i) => arc(`n${String(i).padStart(2, '0')}`, `n${String(i + 1).padStart(2, '0')}`)));
    const engine = new NodeQueryEngine(store);
    const reached = (node: string, property: string) => engine.query({ nodes: [node], property }).data[node]!.arcs![property.slice(2)]!.nodes.map((n) => n.dcid);
    expect(reached('n00', '->next+')).toEqual(['n01', 'n02', 'n03', 'n04', 'n05', 'n06', 'n07', 'n08', 'n09', 'n10']);
    expect(reached('n14', '<-next+')).toEqual(['n04', 'n05', 'n06', 'n07', 'n08', 'n09', 'n10', 'n11', 'n12', 'n13']);
  });

  it('filters answers without pruning the walk, and pages them', () => {
    const store = memoryGraph();
    const typed = (id: string, type: string): Triple => ({ subject: id, predicate: 'typeOf', objectId: type, provenance: 't' });
    store.replace([arc('a', 'b'), arc('b', 'c'), arc('c', 'd'), arc('d', 'a'), typed('b', 'Hub'), typed('d', 'Leaf'), typed('c', 'Leaf'), typed('a', 'Leaf')]);
    const engine = new NodeQueryEngine(store);
    const pages = allPages(engine, { nodes: ['a'], property: '->next+{typeOf:Leaf}' }, 1);
    expect(pages.map((page) => page.data.a!.arcs!['next+']!.nodes)).toEqual([[{ types: ['Leaf'], dcid: 'c' }], [{ types: ['Leaf'], dcid: 'd' }]]);
  });
});
