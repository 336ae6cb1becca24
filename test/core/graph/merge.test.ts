import { describe, expect, it } from 'vitest';
import { replaceGraph } from '../../../engine/graph/breachGraph.ts';
import { mergeNodeResponses } from '../../../electron/core/graph/mergeResponses.ts';
import { NodeQueryEngine } from '../../../engine/graph/NodeQueryEngine.ts';
import { queryEmbedded } from '../../../electron/core/graph/queryEmbedded.ts';
import { breach, memoryGraph } from './helpers.ts';

describe('mergeNodeResponses', () => {
  it("concatenates arcs' node lists, unites properties, keeps {} and the last token", () => {
    const merged = mergeNodeResponses([
      { data: { a: { arcs: { p: { nodes: [{ dcid: '1' }] } } }, b: {}, c: { properties: ['x', 'y'] } }, nextToken: 't1' },
      { data: { a: { arcs: { p: { nodes: [{ dcid: '2' }] }, q: { nodes: [{ value: 'v' }] } } }, b: {}, c: { properties: ['y', 'z'] } }, nextToken: 't2' },
      { data: { a: {}, b: {}, c: {} } },
    ]);
    expect(merged).toEqual({
      data: { a: { arcs: { p: { nodes: [{ dcid: '1' }, { dcid: '2' }] }, q: { nodes: [{ value: 'v' }] } } }, b: {}, c: { properties: ['x', 'y', 'z'] } },
    });
    expect(mergeNodeResponses([{ data: {}, nextToken: 't' }])).toEqual({ data: {}, nextToken: 't' });
  });

  it('treats __proto__ as a node and a label, not as a prototype', () => {
    const page = JSON.parse('{"data":{"__proto__":{"arcs":{"__proto__":{"nodes":[{"dcid":"x"}]}}}}}') as Parameters<typeof mergeNodeResponses>[0][number];
    const merged = mergeNodeResponses([page, page]);
    expect(Object.getPrototypeOf(merged.data)).toBe(Object.prototype);
    expect(Object.keys(merged.data)).toEqual(['__proto__']);
    expect(JSON.stringify(merged)).toBe('{"data":{"__proto__":{"arcs":{"__proto__":{"nodes":[{"dcid":"x"},{"dcid":"x"}]}}}}}');
  });

  it('does not change the pages it merges', () => {
    const first = { data: { a: { arcs: { p: { nodes: [{ dcid: '1' }] } } } } };
    mergeNodeResponses([first, first]);
    expect(first.data.a.arcs.p.nodes).toHaveLength(1);
  });
});

describe('queryEmbedded', () => {
  it('follows the engine’s tokens and answers like the client, source "embedded"', async () => {
    const store = memoryGraph();
    replaceGraph(
      store,
      ['A', 'B', 'C', 'D', 'E'].map((id) => breach(id)),
    );
    const engine = new NodeQueryEngine(store, { pageSize: 2 });
    const result = await queryEmbedded(engine, { nodes: ['Breach'], property: '<-typeOf' }, { now: () => new Date('2026-02-14T09:30:00Z') });
    expect(result).toMatchObject({ source: 'embedded', pages: 3, complete: true, fetchedAt: '2026-02-14T09:30:00.000Z' });
    expect(result.response).toEqual(engine.query({ nodes: ['Breach'], property: '<-typeOf' }, { pageSize: 100 }));
    const capped = await queryEmbedded(engine, { nodes: ['Breach'], property: '<-typeOf' }, { maxPages: 2 });
    expect(capped).toMatchObject({ pages: 2, complete: false });
    const controller = new AbortController();
    controller.abort();
    await expect(queryEmbedded(engine, { nodes: ['Breach'], property: '<-typeOf' }, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
