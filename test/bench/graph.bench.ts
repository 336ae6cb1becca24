// npm run bench:graph — the node query engine and client beside bare baselines measured in the
// same run: `<-typeOf` of Breach over 100,000 breach nodes paged 500 at a time (floor: the same
// keyset SELECTs with no answer building), `label+` along 10-level chains (floor: a recursive
// CTE), and the client merging 50 pages of 500 (floor: JSON.parse of the same 50 bodies). Then
// `graph_catalog_add_p50`: one breach added to a graph of 300 and of 3,000 breaches, breach by
// breach as the service does (floor: a bare insert of the same triples; `vs_300` shows whether
// the cost grows with the catalog; `whole_build` is what each add cost before, a whole rebuild).
import type { Breach } from '../../shared/api/index.ts';
import type { NodeResponse } from '../../shared/graph/index.ts';
import { MemorySecretStore } from '../../electron/core/auth/secrets/MemorySecretStore.ts';
import { breachTriples, replaceGraph, updateBreachGraph } from '../../engine/graph/breachGraph.ts';
import { NodeQueryClient } from '../../electron/core/graph/NodeQueryClient.ts';
import { NodeQueryEngine } from '../../engine/graph/NodeQueryEngine.ts';
import { TripleStore, type Triple } from '../../engine/graph/TripleStore.ts';

const BREACHES = Number(process.env.BENCH_BREACHES ?? 100_000);
const PAGE_SIZE = 500;
const CHAINS = 1000;
const CHAIN_LENGTH = 10;
const PAGES = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const CLASSES = ['Email addresses', 'Passwords', 'Usernames', 'IP addresses', 'Names', 'Phone numbers', 'Dates of birth', 'Physical addresses', 'Genders', 'Security questions and answers'];

function syntheticBreaches(count: number): Breach[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `Bench${String(i).padStart(6, '0')}`;
    return {
      id,
      domain: `site${Math.floor(i / 10)}.example`,
      breachDate: '2020-01-15',
      addedDate: '2020-02-01T10:00:00Z',
      modifiedDate: '2020-02-01T10:00:00Z',
      dataClasses: [CLASSES[i % 10]!, CLASSES[(i * 7 + 3) % 10]!, 'Email addresses'].filter((c, j, all) => all.indexOf(c) === j).sort(),
      isSensitive: i % 17 === 0,
    };
  });
}

/** Median wall time in ms of `runs` runs of `fn`, after one warm-up run. */
async function measure(runs: number, fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function main(): Promise<void> {
  const results: { name: string; what: string; value: number; floor: number }[] = [];

  // 1. <-typeOf of Breach over 100,000 breach nodes, every page of 500.
  const store = TripleStore.open(':memory:');
  const started = performance.now();
  const { triples } = replaceGraph(store, syntheticBreaches(BREACHES));
  console.log(`graph of ${BREACHES} breaches: ${triples} triples, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const engine = new NodeQueryEngine(store, { pageSize: PAGE_SIZE });
  let items = 0;
  const pagedEngine = await measure(RUNS, () => {
    items = 0;
    let token: string | undefined;
    do {
      const page = engine.query({ nodes: ['Breach'], property: '<-typeOf', nextToken: token });
      items += page.data.Breach!.arcs!.typeOf!.nodes.length;
      token = page.nextToken;
    } while (token);
  });
  if (items !== BREACHES) throw new Error(`paged ${items} items, expected ${BREACHES}`);
  const keyset = store.database.prepare(
    `SELECT t.subject, t.provenance, n.name, n.types FROM triple t LEFT JOIN node n ON n.dcid = t.subject
     WHERE t.object_id = 'Breach' AND t.predicate = 'typeOf' AND t.subject > ? ORDER BY t.subject LIMIT ?`,
  );
  const pagedFloor = await measure(RUNS, () => {
    let rows: { subject: string }[];
    let after = '';
    let count = 0;
    do {
      rows = keyset.all(after, PAGE_SIZE) as { subject: string }[];
      count += rows.length;
      after = rows.at(-1)?.subject ?? after;
    } while (rows.length === PAGE_SIZE);
    if (count !== BREACHES) throw new Error(`floor read ${count} rows`);
  });
  results.push({ name: 'in_typeOf_100k_paged_500', what: `<-typeOf of Breach, ${BREACHES} nodes, ${Math.ceil(BREACHES / PAGE_SIZE)} pages`, value: pagedEngine, floor: pagedFloor });
  store.close();

  // 2. label+ along 10-level chains: one query per chain, so the engine's closure cache never answers.
  const chains = TripleStore.open(':memory:');
  const chainTriples: Triple[] = [];
  for (let c = 0; c < CHAINS; c++) {
    for (let i = 0; i < CHAIN_LENGTH; i++) chainTriples.push({ subject: `c${c}/n${i}`, predicate: 'next', objectId: `c${c}/n${i + 1}`, provenance: 'bench' });
    chainTriples.push({ subject: `c${c}/n${CHAIN_LENGTH}`, predicate: 'next', objectId: `c${c}/n0`, provenance: 'bench' });
  }
  chains.replace(chainTriples);
  const chainEngine = new NodeQueryEngine(chains);
  const chainValue = await measure(RUNS, () => {
    for (let c = 0; c < CHAINS; c++) {
      const found = chainEngine.query({ nodes: [`c${c}/n0`], property: '->next+' }).data[`c${c}/n0`]!.arcs!['next+']!.nodes.length;
      if (found !== CHAIN_LENGTH) throw new Error(`chain ${c}: ${found} nodes`);
    }
  });
  const cte = chains.database.prepare(
    `WITH RECURSIVE walk(id, depth) AS (
       SELECT ?, 0
       UNION SELECT t.object_id, walk.depth + 1 FROM triple t JOIN walk ON t.subject = walk.id
       WHERE t.predicate = 'next' AND t.object_id IS NOT NULL AND walk.depth < ${CHAIN_LENGTH})
     SELECT DISTINCT id FROM walk WHERE depth > 0 AND id <> ? ORDER BY id`,
  );
  const chainFloor = await measure(RUNS, () => {
    for (let c = 0; c < CHAINS; c++) {
      const found = cte.all(`c${c}/n0`, `c${c}/n0`).length;
      if (found !== CHAIN_LENGTH) throw new Error(`cte chain ${c}: ${found} nodes`);
    }
  });
  results.push({ name: 'plus_chain_10_hops', what: `->next+ along ${CHAINS} chains of ${CHAIN_LENGTH} (cycle back to the start)`, value: chainValue / CHAINS, floor: chainFloor / CHAINS });
  chains.close();

  // 3. The client following and merging 50 pages of 500 items, over an in-memory fetch.
  const bodies = Array.from({ length: PAGES }, (_, p) => {
    const page: NodeResponse = {
      data: { Breach: { arcs: { typeOf: { nodes: Array.from({ length: PAGE_SIZE }, (_, i) => ({ name: `B${p}-${i}`, types: ['Breach'], dcid: `B${p}-${i}`, provenanceId: 'breach-catalog' })) } } } },
      ...(p < PAGES - 1 ? { nextToken: `page-${p + 1}` } : {}),
    };
    return JSON.stringify(page);
  });
  const byToken = new Map(bodies.map((body, p) => [p === 0 ? '' : `page-${p}`, body]));
  const fakeFetch: typeof fetch = async (_input, init) => {
    const { nextToken } = JSON.parse(String(init?.body)) as { nextToken?: string };
    return new Response(byToken.get(nextToken ?? ''), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const client = new NodeQueryClient({ baseUrl: 'http://bench.invalid', secrets: new MemorySecretStore(), fetch: fakeFetch });
  await client.setApiKey('bench');
  const clientValue = await measure(RUNS * 2, async () => {
    const result = await client.query({ nodes: ['Breach'], property: '<-typeOf' });
    if (result.pages !== PAGES || result.response.data.Breach!.arcs!.typeOf!.nodes.length !== PAGES * PAGE_SIZE) throw new Error('client merged the wrong answer');
  });
  const clientFloor = await measure(RUNS * 2, () => {
    let n = 0;
    for (const body of bodies) n += (JSON.parse(body) as NodeResponse).data.Breach!.arcs!.typeOf!.nodes.length;
    if (n !== PAGES * PAGE_SIZE) throw new Error('floor parsed the wrong bodies');
  });
  results.push({ name: 'client_merge_50_pages', what: `client: ${PAGES} pages of ${PAGE_SIZE} followed, validated, merged`, value: clientValue, floor: clientFloor });

  // 4. One breach added to the graph of a catalog of 300 and of 3,000.
  const addOne = (size: number) => {
    const catalog = new Map(syntheticBreaches(size).map((b) => [b.id, b]));
    const graph = TripleStore.open(':memory:');
    replaceGraph(graph, [...catalog.values()]);
    const times: number[] = [];
    for (let i = 0; i < 60; i++) {
      const added: Breach = { ...syntheticBreaches(1)[0]!, id: `Added${String(i).padStart(3, '0')}`, domain: `added${i}.example`, dataClasses: ['Email addresses', `Added class ${i}`] };
      catalog.set(added.id, added);
      const started = performance.now();
      updateBreachGraph(graph, [{ id: added.id, breach: added }], (id) => catalog.get(id));
      if (i >= 10) times.push(performance.now() - started);
    }
    const whole = performance.now();
    replaceGraph(graph, [...catalog.values()]);
    const wholeMs = performance.now() - whole;
    graph.close();
    times.sort((a, b) => a - b);
    return { p50: times[Math.floor(times.length / 2)]!, wholeMs };
  };
  const small = addOne(300);
  const large = addOne(3000);
  const bare = TripleStore.open(':memory:');
  const insert = bare.database.prepare('INSERT INTO triple (subject, predicate, object_id, object_value, provenance) VALUES (?, ?, ?, ?, ?)');
  const bareTimes: number[] = [];
  for (let i = 0; i < 200; i++) {
    const triples = breachTriples([{ ...syntheticBreaches(1)[0]!, id: `Bare${i}` }]);
    const started = performance.now();
    bare.database.transaction(() => {
      for (const t of triples) insert.run(t.subject, t.predicate, t.objectId ?? null, t.objectValue ?? null, t.provenance);
    })();
    if (i >= 20) bareTimes.push(performance.now() - started);
  }
  bare.close();
  bareTimes.sort((a, b) => a - b);
  const bareP50 = bareTimes[Math.floor(bareTimes.length / 2)]!;
  console.log(
    `adding one breach to the graph: p50 ${small.p50.toFixed(3)} ms at 300 breaches, ${large.p50.toFixed(3)} ms at 3,000 (whole rebuilds: ${small.wholeMs.toFixed(1)} and ${large.wholeMs.toFixed(1)} ms; bare insert ${bareP50.toFixed(3)} ms)`,
  );

  const round = (n: number) => (n >= 10 ? Math.round(n * 10) / 10 : Math.round(n * 1000) / 1000);
  console.log(`\nmedian of ${RUNS} runs (client: ${RUNS * 2}) after a warm-up; floor measured in the same run`);
  console.log('metric                      value ms     floor ms   ratio   what');
  const metrics: Record<string, { value: number; unit: string; floor: number; ratio: number }> = {};
  for (const r of results) {
    const ratio = Math.round((r.value / r.floor) * 100) / 100;
    console.log(`${r.name.padEnd(26)} ${String(round(r.value)).padStart(9)}  ${String(round(r.floor)).padStart(11)}  ${ratio.toFixed(2).padStart(6)}   ${r.what}`);
    metrics[r.name] = { value: round(r.value), unit: 'ms', floor: round(r.floor), ratio };
  }
  const catalogAdd = {
    value: round(large.p50),
    unit: 'ms',
    floor: round(bareP50),
    ratio: Math.round((large.p50 / bareP50) * 100) / 100,
    at_300: round(small.p50),
    vs_300: Math.round((large.p50 / small.p50) * 100) / 100,
    whole_build: round(large.wholeMs),
  };
  console.log(JSON.stringify({ bench: 'graph', metrics: { ...metrics, graph_catalog_add_p50: catalogAdd } }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
