import { beforeEach, describe, expect, it } from 'vitest';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import { GraphQueryError, NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import type { TripleStore } from '../../../engine/graph/TripleStore.ts';
import { CATALOG, memoryGraph, P } from './helpers.ts';

const literal = (value: string) => ({ provenanceId: P, value });
const breachItem = (id: string) => ({ name: id, types: ['Breach'], dcid: id, provenanceId: P });
const dataClassItem = (slug: string, name: string) => ({ name, types: ['DataClass'], dcid: `dataClass/${slug}`, provenanceId: P });
const typeItem = (dcid: string) => ({ types: ['Class'], dcid, provenanceId: P });

let store: TripleStore;
let engine: NodeQueryEngine;
beforeEach(() => {
  store = memoryGraph();
  replaceGraph(store, CATALOG);
  engine = new NodeQueryEngine(store);
});

describe('NodeQueryEngine: every expression shape over the breach graph', () => {
  it('->label: one outgoing property; a node without data is {}', () => {
    expect(engine.query({ nodes: ['Adobe', 'Nope'], property: '->name' })).toEqual({
      data: { Adobe: { arcs: { name: { nodes: [literal('Adobe')] } } }, Nope: {} },
    });
  });

  it('->label to nodes: name, types, dcid, provenanceId', () => {
    expect(engine.query({ nodes: ['Adobe'], property: '->dataClass' })).toEqual({
      data: {
        Adobe: {
          arcs: {
            dataClass: {
              nodes: [dataClassItem('email-addresses', 'Email addresses'), dataClassItem('password-hints', 'Password hints'), dataClassItem('passwords', 'Passwords')],
            },
          },
        },
      },
    });
  });

  it('->[a, b]: several properties; a missing one is left out', () => {
    expect(engine.query({ nodes: ['Collection1', 'Adobe'], property: '->[name, domain, isSensitive]' })).toEqual({
      data: {
        Adobe: {
          arcs: {
            domain: { nodes: [{ name: 'adobe.com', types: ['Domain'], dcid: 'domain/adobe.com', provenanceId: P }] },
            isSensitive: { nodes: [literal('false')] },
            name: { nodes: [literal('Adobe')] },
          },
        },
        Collection1: { arcs: { isSensitive: { nodes: [literal('false')] }, name: { nodes: [literal('Collection1')] } } },
      },
    });
  });

  it('->*: every outgoing arc with its values', () => {
    expect(engine.query({ nodes: ['Collection1'], property: '->*' })).toEqual({
      data: {
        Collection1: {
          arcs: {
            addedDate: { nodes: [literal('2019-01-16T21:46:00Z')] },
            breachDate: { nodes: [literal('2019-01-07')] },
            dataClass: { nodes: [dataClassItem('email-addresses', 'Email addresses'), dataClassItem('passwords', 'Passwords')] },
            isSensitive: { nodes: [literal('false')] },
            modifiedDate: { nodes: [literal('2019-01-16T21:46:00Z')] },
            name: { nodes: [literal('Collection1')] },
            typeOf: { nodes: [typeItem('Breach')] },
          },
        },
      },
    });
  });

  it('<-*: every incoming arc with its values', () => {
    expect(engine.query({ nodes: ['domain/adobe.com', 'dataClass/passwords'], property: '<-*' })).toEqual({
      data: {
        'dataClass/passwords': { arcs: { dataClass: { nodes: [breachItem('Adobe'), breachItem('AshleyMadison'), breachItem('Collection1')] } } },
        'domain/adobe.com': { arcs: { domain: { nodes: [breachItem('Adobe')] } } },
      },
    });
  });

  it('-> and <-: labels only', () => {
    expect(engine.query({ nodes: ['Adobe', 'domain/adobe.com'], property: '->' })).toEqual({
      data: {
        Adobe: { properties: ['addedDate', 'breachDate', 'dataClass', 'domain', 'isSensitive', 'modifiedDate', 'name', 'typeOf'] },
        'domain/adobe.com': { properties: ['name', 'typeOf'] },
      },
    });
    expect(engine.query({ nodes: ['domain/adobe.com', 'Adobe', 'Breach'], property: '<-' })).toEqual({
      data: { Adobe: {}, Breach: { properties: ['typeOf'] }, 'domain/adobe.com': { properties: ['domain'] } },
    });
  });

  it('<-label: the breaches that exposed a data class; <-typeOf lists a type', () => {
    expect(engine.query({ nodes: ['dataClass/sexual-preferences'], property: '<-dataClass' })).toEqual({
      data: { 'dataClass/sexual-preferences': { arcs: { dataClass: { nodes: [breachItem('AshleyMadison')] } } } },
    });
    expect(engine.query({ nodes: ['Breach', 'Class'], property: '<-typeOf' })).toEqual({
      data: {
        Breach: { arcs: { typeOf: { nodes: [breachItem('Adobe'), breachItem('AshleyMadison'), breachItem('Collection1')] } } },
        Class: { arcs: { typeOf: { nodes: [typeItem('Breach'), typeItem('DataClass'), typeItem('Domain')] } } },
      },
    });
  });

  it('label+{typeOf:X}: several hops, filtered, the key keeps "+", items carry no provenance', () => {
    expect(engine.query({ nodes: ['Class'], property: '<-typeOf+{typeOf:Breach}' })).toEqual({
      data: {
        Class: {
          arcs: {
            'typeOf+': {
              nodes: [
                { name: 'Adobe', types: ['Breach'], dcid: 'Adobe' },
                { name: 'AshleyMadison', types: ['Breach'], dcid: 'AshleyMadison' },
                { name: 'Collection1', types: ['Breach'], dcid: 'Collection1' },
              ],
            },
          },
        },
      },
    });
    expect(engine.query({ nodes: ['Adobe'], property: '->typeOf+' })).toEqual({
      data: { Adobe: { arcs: { 'typeOf+': { nodes: [{ types: ['Class'], dcid: 'Breach' }, { dcid: 'Class' }] } } } },
    });
  });

  it('a filter on one hop: over literals and over nodes, quoted values', () => {
    expect(engine.query({ nodes: ['dataClass/passwords'], property: '<-dataClass{isSensitive:true}' })).toEqual({
      data: { 'dataClass/passwords': { arcs: { dataClass: { nodes: [breachItem('AshleyMadison')] } } } },
    });
    expect(engine.query({ nodes: ['dataClass/passwords'], property: '<-dataClass{domain:domain/adobe.com}' })).toEqual({
      data: { 'dataClass/passwords': { arcs: { dataClass: { nodes: [breachItem('Adobe')] } } } },
    });
    expect(engine.query({ nodes: ['Adobe'], property: '->dataClass{name:"Password hints"}' })).toEqual({
      data: { Adobe: { arcs: { dataClass: { nodes: [dataClassItem('password-hints', 'Password hints')] } } } },
    });
    // Literals have no arcs, so a filter never keeps one.
    expect(engine.query({ nodes: ['Adobe'], property: '->name{typeOf:Breach}' })).toEqual({ data: { Adobe: {} } });
  });

  it('answers duplicate nodes once, in dcid order', () => {
    const answer = engine.query({ nodes: ['Collection1', 'Adobe', 'Collection1'], property: '->name' });
    expect(Object.keys(answer.data)).toEqual(['Adobe', 'Collection1']);
  });

  it('the same expression with other spacing is the same query', () => {
    expect(engine.query({ nodes: ['Adobe'], property: ' -> [ name ,domain ] ' })).toEqual(engine.query({ nodes: ['Adobe'], property: '->[domain, name]' }));
  });

  it('never answers an email: the graph holds catalog fields only', () => {
    const withEmails = CATALOG.map((b) => ({ ...b, emails: ['alice@example.com'], breachedAccounts: [{ email: 'bob@example.com' }] }));
    replaceGraph(store, withEmails);
    const everything = JSON.stringify([
      engine.query({ nodes: ['Adobe', 'AshleyMadison', 'Collection1'], property: '->*' }),
      engine.query({ nodes: ['Adobe', 'AshleyMadison', 'Collection1'], property: '<-*' }),
      store.database.prepare('SELECT * FROM triple').all(),
    ]);
    expect(everything).not.toContain('@');
  });
});

describe('NodeQueryEngine: refusals', () => {
  const refusal = (input: { nodes: string[]; property: string; nextToken?: string }) => {
    try {
      engine.query(input);
    } catch (error) {
      expect(error).toBeInstanceOf(GraphQueryError);
      const { message, field, index } = error as GraphQueryError;
      return { message, field, index };
    }
    throw new Error('expected a refusal');
  };

  it("a bad expression: the parser's message and position", () => {
    expect(refusal({ nodes: ['Adobe'], property: '->na me' })).toEqual({ message: 'expected alternating arrows and properties at position 5', field: 'property', index: 5 });
    expect(refusal({ nodes: ['Adobe'], property: '->[name' })).toEqual({ message: 'unclosed "[" at position 2', field: 'property', index: 2 });
  });

  it('chained hops, empty or too many nodes, an empty expression', () => {
    expect(refusal({ nodes: ['Adobe'], property: '->domain->name' }).message).toBe('this service answers one arrow per expression; "->domain->name" has 2 (query one hop at a time)');
    expect(refusal({ nodes: [], property: '->name' })).toMatchObject({ field: 'nodes', message: 'nodes: at least one node is required' });
    expect(refusal({ nodes: [''], property: '->name' })).toMatchObject({ field: 'nodes', message: 'nodes.0: a node identifier must not be empty' });
    expect(refusal({ nodes: Array.from({ length: 501 }, (_, i) => `n${i}`), property: '->name' })).toMatchObject({ field: 'nodes', message: 'nodes: at most 500 nodes per request' });
    expect(refusal({ nodes: ['Adobe'], property: '' })).toMatchObject({ field: 'property', message: 'property: a relation expression is required' });
  });

  it('a page size outside 1..10000', () => {
    expect(() => engine.query({ nodes: ['Adobe'], property: '->name' }, { pageSize: 0 })).toThrow(/pageSize must be a whole number from 1 to 10000, got 0/);
    expect(() => new NodeQueryEngine(store, { pageSize: 1.5 })).toThrow(GraphQueryError);
  });
});
