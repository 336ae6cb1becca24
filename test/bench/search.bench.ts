// npm run bench:search — the embedded search engine over the 800-breach Have I Been Pwned catalog
// (../shared/fixtures/hibp): p95 of one search (FTS5 ranking, the filter engine, chunk building)
// beside its floor, the same FTS5 query alone; and the reference service's search endpoint under
// 32 connections beside a bare Node http server answering the same bytes, measured in the same run.
// `-- --store postgres` adds, in the same run, the PostgreSQL index (full-text search in a private
// server) beside the embedded engine, and the service's endpoint on PostgreSQL beside SQLite's and
// the bare server's. Then `catalog_add_p50`: adding one breach through the development surface
// (and finding it with a search) with the catalog at 300 and at 3,000 entries, beside a bare
// SQLite insert of one row; the two sizes' ratio shows whether the cost grows with the catalog.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { loadCatalogFile } from '../../server/catalog/source.ts';
import { BREACH_FILTER_FIELDS, BreachSearchIndex, parseMetadataFilter, toChunk, toFtsQuery, toSearchDocument, type MetadataFilter } from '../../shared/search/index.ts';
import { openSearchStorage, migratePostgresAt, openPostgresBreachStoreAt } from '../support/storeOpeners.ts';
import { startPrivatePostgres, type PrivatePostgres } from '../../tools/privatePostgres.ts';
import { ROOT, startProcess, stopProcess } from './processes.ts';

const HIBP = path.resolve(ROOT, '../shared/fixtures/hibp/breaches.json');
const RUNS = Number(process.env.BENCH_RUNS ?? 3000);
const CONNECTIONS = 32;
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const Y2020 = Date.parse('2020-01-01T00:00:00Z') / 1000;

/** What people type, with and without filter chips. */
const QUERIES: { query: string; filter?: MetadataFilter }[] = [
  { query: 'Adobe' },
  { query: 'which of my breaches leaked passwords after 2020?', filter: { breachDate: { $gte: Y2020 }, dataClasses: 'Passwords' } },
  { query: 'what was that games company breach?' },
  { query: 'dating site', filter: { isSensitive: false } },
  { query: 'crypto forum', filter: { dataClasses: { $in: ['Passwords', 'Phone numbers'] }, isVerified: true } },
  { query: 'email addresses phone numbers' },
  { query: 'linkedin' },
  { query: 'hacking forum leaked usernames', filter: { pwnCount: { $gt: 100_000 } } },
];

function p95(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)]!;
}

/** p95 of each of two workloads, run alternately so a busy machine weighs on both alike. */
function measurePair(a: (i: number) => unknown, b: (i: number) => unknown): [number, number] {
  for (let i = 0; i < 200; i++) {
    // warm-up: JIT, statement caches
    a(i);
    b(i);
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, fn] of [a, b].entries()) {
      const started = performance.now();
      fn(i);
      times[k]!.push(performance.now() - started);
    }
  }
  return [p95(times[0]), p95(times[1])];
}

/** The same, for asynchronous workloads (a query to PostgreSQL per search). */
async function measurePairAsync(a: (i: number) => Promise<unknown>, b: (i: number) => unknown, runs: number): Promise<[number, number]> {
  for (let i = 0; i < 100; i++) {
    await a(i);
    b(i);
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    let started = performance.now();
    await a(i);
    times[0].push(performance.now() - started);
    started = performance.now();
    b(i);
    times[1].push(performance.now() - started);
  }
  return [p95(times[0]), p95(times[1])];
}

type Run = { rps: number; p99: number };

/** The service's search endpoint under load, then a bare server answering its bytes. */
async function measureService(databaseUrl?: string): Promise<{ service: Run; bare: Run }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-search-'));
  const service = await startProcess(
    ['server/main.ts', '--port', '0', '--dev', '--data', dataDir, '--catalog', HIBP, '--log-level', 'warn', ...(databaseUrl ? ['--database-url', databaseUrl] : [])],
    /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/,
  );
  const origin = service.match[1]!;
  try {
    const created = (await (
      await fetch(`${origin}/__dev/api-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['ai-search:read'] }) })
    ).json()) as { token: string };
    const headers = { authorization: `Bearer ${created.token}` };
    const url = `${origin}/client/v4/accounts/local/ai-search/instances/breaches/search`;
    const body = JSON.stringify({ messages: [{ role: 'user', content: QUERIES[1]!.query }], ai_search_options: { retrieval: { filters: QUERIES[1]!.filter, max_num_results: 10 } } });
    const answer = await (await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body })).text();
    if (!answer.includes('"success":true')) throw new Error(`search failed: ${answer.slice(0, 300)}`);
    const serviceRun = await load(url, body, headers, Buffer.byteLength(answer));
    const bodyFile = path.join(dataDir, 'answer.json');
    writeFileSync(bodyFile, answer);
    const bare = await startProcess(['test/bench/bareServer.ts', bodyFile], /listening (\d+)/);
    try {
      return { service: serviceRun, bare: await load(`http://127.0.0.1:${bare.match[1]}/`, body, headers, Buffer.byteLength(answer)) };
    } finally {
      await stopProcess(bare.child);
    }
  } finally {
    await stopProcess(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** p95 of one uncached search on the PostgreSQL index (its revision check included), beside the embedded engine's. */
async function measurePostgresIndex(databaseUrl: string, embedded: BreachSearchIndex, checked: { query: string; filter: MetadataFilter | undefined }[]): Promise<[number, number]> {
  const source = loadCatalogFile(HIBP);
  await migratePostgresAt(databaseUrl);
  const store = await openPostgresBreachStoreAt({ url: databaseUrl });
  const storage = await openSearchStorage({ catalog: undefined, databaseUrl, dataDir: tmpdir(), readDetails: () => source.details });
  try {
    await store.replaceCatalog(source.breaches);
    const first = await storage.index.search({ query: 'Adobe', maxResults: 1 });
    if (first[0]?.doc.id !== 'Adobe') throw new Error(`the PostgreSQL index answered ${JSON.stringify(first[0]?.doc.id)} for "Adobe"`);
    return await measurePairAsync(
      async (i) => {
        const { query, filter } = checked[i % checked.length]!;
        return (await storage.index.search({ query, filter, maxResults: 10 })).map(toChunk);
      },
      (i) => {
        const { query, filter } = checked[i % checked.length]!;
        return embedded.search({ query, filter, maxResults: 10 }).map(toChunk);
      },
      Math.min(RUNS, 1000),
    );
  } finally {
    await storage.close();
    await store.close();
  }
}

const ADDS = Number(process.env.BENCH_ADDS ?? 40);

function p50(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** A Have I Been Pwned catalog file of `entries` kept records: the fixture's, cloned under new names. */
function writeCatalogOf(entries: number, file: string): void {
  const kept = (JSON.parse(readFileSync(HIBP, 'utf8')) as Record<string, unknown>[]).filter((r) => !r.IsRetired && !r.IsFabricated && !r.IsSpamList);
  writeFileSync(file, JSON.stringify(Array.from({ length: entries }, (_, i) => ({ ...kept[i % kept.length], Name: `${String(kept[i % kept.length]!.Name)}${Math.floor(i / kept.length) || ''}` }))));
}

/**
 * p50 of adding one breach (`POST /__dev/breaches`, which writes its details to the feed) and then
 * searching for its title, on a service whose catalog file holds `entries` breaches (loaded at
 * start-up in one transaction: the bulk path).
 */
async function measureCatalogAdd(entries: number): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-add-'));
  const catalogFile = path.join(dataDir, 'catalog.json');
  writeCatalogOf(entries, catalogFile);
  const service = await startProcess(
    ['server/main.ts', '--port', '0', '--dev', '--data', dataDir, '--catalog', catalogFile, '--log-level', 'warn'],
    /API base URL:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v1/,
  );
  const origin = service.match[1]!;
  try {
    const created = (await (
      await fetch(`${origin}/__dev/api-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: ['ai-search:read'] }) })
    ).json()) as { token: string };
    const searchUrl = `${origin}/client/v4/accounts/local/ai-search/instances/breaches/search`;
    const times: number[] = [];
    for (let i = 0; i < ADDS + 5; i++) {
      const id = `Added${entries}x${i}`;
      const breach = { id, domain: `added${i}.example`, breachDate: '2024-01-02', addedDate: '2024-02-03T04:05:00Z', dataClasses: ['Email addresses', 'Passwords'], isSensitive: false };
      const body = JSON.stringify({ messages: [{ role: 'user', content: `added${i}` }], ai_search_options: { retrieval: { max_num_results: 3 } } });
      const started = performance.now();
      const added = await fetch(`${origin}/__dev/breaches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(breach) });
      if (added.status !== 201) throw new Error(`POST /__dev/breaches: ${added.status} ${await added.text()}`);
      const found = await (await fetch(searchUrl, { method: 'POST', headers: { authorization: `Bearer ${created.token}`, 'content-type': 'application/json' }, body })).text();
      const elapsed = performance.now() - started;
      if (!found.includes(`"${id}"`)) throw new Error(`the search after adding ${id} did not find it: ${found.slice(0, 300)}`);
      if (i >= 5) times.push(elapsed); // the first few warm up the JIT and statement caches
    }
    return p50(times);
  } finally {
    await stopProcess(service.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** p50 of a bare SQLite insert of one row into a file database (WAL, as the service opens its own). */
function measureBareInsert(): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-insert-'));
  const db = new Database(path.join(dir, 'bare.db'));
  try {
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE rows (id TEXT PRIMARY KEY, body TEXT NOT NULL)');
    const insert = db.prepare('INSERT INTO rows (id, body) VALUES (?, ?)');
    const times: number[] = [];
    for (let i = 0; i < 1000; i++) {
      const started = performance.now();
      insert.run(`row${i}`, JSON.stringify({ i, name: `row ${i}` }));
      times.push(performance.now() - started);
    }
    return p50(times.slice(100));
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Floor: a bare insert of one row; `vs_300` is the 3,000-entry figure over the 300-entry one. */
function catalogAddMetric(small: number, large: number, floor: number): Record<string, number | string> {
  const round = (value: number, digits = 3) => Number(value.toFixed(digits));
  console.log(`adding one breach p50 ${round(small)} ms at 300 entries, ${round(large)} ms at 3,000 (bare SQLite insert ${round(floor, 4)} ms)`);
  return { value: round(large), unit: 'ms', floor: round(floor, 4), ratio: round(large / floor, 1), at_300: round(small), vs_300: round(large / small, 2) };
}

async function load(url: string, body: string, headers: Record<string, string>, bytes: number) {
  const options = { url, method: 'POST' as const, body, connections: CONNECTIONS, headers: { 'content-type': 'application/json', ...headers } };
  await autocannon({ ...options, duration: 1 });
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const perRequest = result.throughput.average / result.requests.average;
  if (Math.abs(perRequest - bytes) / bytes > 0.2) throw new Error(`${url}: answers of ${Math.round(perRequest)} bytes, expected about ${bytes}`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, only: { type: 'string' } } });
  if (values.only !== undefined && values.only !== 'catalog-add') throw new Error(`--only takes catalog-add, not ${JSON.stringify(values.only)}`);
  if (values.only === 'catalog-add') {
    // Adding one breach alone (the other figures take minutes of load).
    const [small, large, floor] = [await measureCatalogAdd(300), await measureCatalogAdd(3000), measureBareInsert()];
    console.log(JSON.stringify({ bench: 'search', metrics: { catalog_add_p50: catalogAddMetric(small, large, floor) } }));
    return;
  }
  if (values.store !== 'sqlite' && values.store !== 'postgres') throw new Error(`--store must be sqlite or postgres, not ${JSON.stringify(values.store)}`);
  // 1. Embedded search, as the app runs it offline.
  const source = loadCatalogFile(HIBP);
  const db = new Database(':memory:');
  const index = new BreachSearchIndex(db);
  index.replaceAll(source.breaches.map((breach) => toSearchDocument(breach, source.details[breach.id])));
  console.log(`indexed ${index.size} breaches of ${HIBP}`);
  const checked = QUERIES.map(({ query, filter }) => ({ query, filter: filter && parseMetadataFilter(filter, BREACH_FILTER_FIELDS) }));
  // Floor: the engine's own FTS5 statement (every match, bm25-ordered) with nothing around it.
  const match = db.prepare('SELECT id, bm25(breach_search, 0, 10, 6, 4, 1) AS rank FROM breach_search WHERE breach_search MATCH ? ORDER BY rank');
  const fts = QUERIES.map(({ query }) => toFtsQuery(query)!);
  const [embedded, floor] = measurePair(
    (i) => {
      const { query, filter } = checked[i % checked.length]!;
      return index.search({ query, filter, maxResults: 10 }).map(toChunk);
    },
    (i) => match.all(fts[i % fts.length]),
  );

  // 2. The service's search endpoint over HTTP with an API token checked on every request.
  const sqliteRun = await measureService();

  // 3. Adding one breach, at two catalog sizes, beside a bare insert of one row.
  const addSmall = await measureCatalogAdd(300);
  const addLarge = await measureCatalogAdd(3000);
  const bareInsert = measureBareInsert();

  // 4. The same on PostgreSQL: the index alone, then the service.
  let postgres: { index: [number, number]; run: { service: Run; bare: Run } } | undefined;
  if (values.store === 'postgres') {
    let server: PrivatePostgres | undefined;
    try {
      server = await startPrivatePostgres();
      postgres = { index: await measurePostgresIndex(await server.createDatabase('bench_index'), index, checked), run: await measureService(await server.createDatabase('bench_service')) };
    } finally {
      await server?.close();
    }
  }
  db.close();

  const round = (value: number, digits = 3) => Number(value.toFixed(digits));
  console.log(`embedded search p95 ${round(embedded)} ms (FTS5 alone ${round(floor)} ms) over ${RUNS} searches`);
  console.log(`service search ${Math.round(sqliteRun.service.rps)} req/s (p99 ${sqliteRun.service.p99} ms) vs bare ${Math.round(sqliteRun.bare.rps)} req/s`);
  const metrics: Record<string, Record<string, number | string>> = {
    embedded_search_p95: { value: round(embedded), unit: 'ms', floor: round(floor), ratio: round(embedded / floor, 2) },
    // Throughput: the floor is the bare server; ratio = how many times slower than it.
    service_search_throughput: { value: Math.round(sqliteRun.service.rps), unit: 'req/s', floor: Math.round(sqliteRun.bare.rps), ratio: round(sqliteRun.bare.rps / sqliteRun.service.rps, 2) },
  };
  metrics.catalog_add_p50 = catalogAddMetric(addSmall, addLarge, bareInsert);
  if (postgres) {
    const [pgSearch, embeddedAgain] = postgres.index;
    const { service, bare } = postgres.run;
    console.log(`PostgreSQL index search p95 ${round(pgSearch)} ms (embedded engine ${round(embeddedAgain)} ms in the same loop)`);
    console.log(`service search on PostgreSQL ${Math.round(service.rps)} req/s (p99 ${service.p99} ms) vs bare ${Math.round(bare.rps)} req/s`);
    // Floor: the embedded engine measured in the same loop (no network, no second process).
    metrics.postgres_search_p95 = { value: round(pgSearch), unit: 'ms', floor: round(embeddedAgain), ratio: round(pgSearch / embeddedAgain, 2) };
    metrics.service_search_throughput_postgres = {
      value: Math.round(service.rps),
      unit: 'req/s',
      floor: Math.round(bare.rps),
      ratio: round(bare.rps / service.rps, 2),
      sqlite: Math.round(sqliteRun.service.rps),
      p99_ms: service.p99,
    };
  }
  console.log(JSON.stringify({ bench: 'search', ...(postgres ? { store: 'postgres' } : {}), metrics }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
