// npm run bench:import — a password-manager export's import (issue 38), against floors measured in
// the same run:
// - pwned_pass_2000_passwords: the core's Pwned Passwords pass (checkPwnedPasswords) over 2,000
//   distinct passwords against the range API's stand-in in a child process over loopback HTTP,
//   with Add-Padding (800–1,000 lines per answer), at its default concurrency. Floor: the same
//   distinct prefixes fetched with a bare `fetch` at the same concurrency, each body read as
//   text: what any client pays for the round trips and bytes, without hashing, parsing the lines,
//   matching suffixes, progress or the waiting logic. Median of BENCH_IMPORT_RUNS (3) runs of
//   each, interleaved, after a warm-up of both; `cpu`/`floor_cpu` are the client process's CPU
//   milliseconds (steadier than wall time on a shared machine).
// - import_match_10000_logins: the core's import job (LoginImporter: the file read, recognised and
//   parsed, every password hashed with the account's key, every site reduced with the public
//   suffix list and matched against an 800-breach catalog, the plan against what is kept, one
//   transaction) of a 10,000-login Chrome export into a fresh account database. Floor: the same
//   file read and parsed by the same reader and its rows inserted with one prepared INSERT in one
//   transaction: what any import pays, without the keyed hash, the sites, the matching and the
//   plan. Median of BENCH_IMPORT_RUNS runs of each, interleaved, after a warm-up.
// Last line: one JSON object.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemorySecretStore } from '../../electron/core/auth/secrets/MemorySecretStore.ts';
import { openAccountDatabase } from '../../electron/core/db/openAccountDatabase.ts';
import { MAX_EXPORT_BYTES, readLoginExport } from '../../electron/core/logins/exports/readLoginExport.ts';
import { LoginImporter } from '../../electron/core/logins/LoginImporter.ts';
import { passwordHasher } from '../../electron/core/logins/LoginHashKey.ts';
import { SiteBreachIndex, type CatalogBreach } from '../../electron/core/logins/siteBreaches.ts';
import { checkPwnedPasswords, DEFAULT_CONCURRENCY } from '../../electron/core/passwords/pwnedPasswordPass.ts';
import { startProcess, stopProcess } from './processes.ts';
import { benchPasswords } from './pwnedBenchPasswords.ts';

const RUNS = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const PASSWORDS = 2000;
const LOGINS = 10_000;
const CATALOG_BREACHES = 800;

interface Metric {
  value: number;
  unit: string;
  floor: number;
  ratio: number;
  [extra: string]: unknown;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Wall and CPU milliseconds of this process (the client: the stand-in's are in its own). */
async function timed(work: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const cpu = cpuMs();
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, cpu: cpuMs() - cpu };
}

/** The floor: each prefix asked with a bare fetch, `concurrency` at a time, the body read and nothing done with it. */
async function bareRanges(origin: string, prefixes: readonly string[], concurrency: number): Promise<number> {
  let next = 0;
  let bytes = 0;
  const worker = async () => {
    while (next < prefixes.length) {
      const prefix = prefixes[next++]!;
      const response = await fetch(`${origin}/range/${prefix}`, { headers: { 'add-padding': 'true' } });
      bytes += (await response.text()).length;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return bytes;
}

async function measurePwnedPass(): Promise<Metric> {
  const { passwords, seen } = benchPasswords(PASSWORDS);
  const prefixes = [...new Set([...passwords.values()].map((password) => createHash('sha1').update(password).digest('hex').toUpperCase().slice(0, 5)))];
  const standIn = await startProcess(['test/bench/pwnedStandInProcess.ts', String(PASSWORDS)], /listening (http:\/\/127\.0\.0\.1:\d+)/);
  const origin = standIn.match[1]!;
  try {
    let requests = 0;
    const countingFetch: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const pass = async () => {
      requests = 0;
      let counts = new Map<string, number>();
      const time = await timed(async () => (counts = await checkPwnedPasswords(passwords, { baseUrl: origin, fetch: countingFetch, concurrency: DEFAULT_CONCURRENCY })));
      // A figure for a pass that answered wrong would mean nothing.
      for (const [key, password] of passwords) if (counts.get(key) !== (seen.get(password) ?? 0)) throw new Error(`the pass answered ${counts.get(key)} for ${key}`);
      if (requests !== prefixes.length) throw new Error(`the pass sent ${requests} requests for ${prefixes.length} prefixes`);
      return time;
    };
    const floor = () => timed(() => bareRanges(origin, prefixes, DEFAULT_CONCURRENCY));
    // Warm-up: connections opened, code compiled.
    await floor();
    await pass();
    const passRuns: Array<{ ms: number; cpu: number }> = [];
    const floorRuns: Array<{ ms: number; cpu: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      floorRuns.push(await floor());
      passRuns.push(await pass());
    }
    const show = (runs: typeof passRuns) => runs.map((run) => `${round(run.ms, 0)} ms (CPU ${round(run.cpu, 0)})`).join(' / ');
    console.log(`Pwned Passwords pass: ${PASSWORDS} passwords, ${prefixes.length} distinct prefixes, ${DEFAULT_CONCURRENCY} in flight, ${RUNS} runs`);
    console.log(`  pass  ${show(passRuns)}`);
    console.log(`  floor ${show(floorRuns)} (bare fetch of the same prefixes)`);
    const value = median(passRuns.map((run) => run.ms));
    const floorValue = median(floorRuns.map((run) => run.ms));
    return {
      value: round(value),
      unit: 'ms',
      floor: round(floorValue),
      ratio: round(value / floorValue),
      cpu: round(median(passRuns.map((run) => run.cpu))),
      floor_cpu: round(median(floorRuns.map((run) => run.cpu))),
      requests: prefixes.length,
      concurrency: DEFAULT_CONCURRENCY,
    };
  } finally {
    await stopProcess(standIn.child);
  }
}

/** A Chrome export of `count` invented logins: 2,000 sites (one in ten breached), some passwords reused, addresses with queries. */
function chromeExport(count: number): string {
  const quote = (field: string) => `"${field.replaceAll('"', '""')}"`;
  const rows = ['name,url,username,password,note'];
  for (let i = 0; i < count; i++) {
    const site = `site${i % 2000}-bench.com`;
    rows.push([`Site ${i}`, `https://www.${site}/login?next=%2Fhome&i=${i}`, `person${i}@example.com`, `pw-${i % 7 === 0 ? 'shared' : i}-correct horse`, ''].map(quote).join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

function benchCatalog(): CatalogBreach[] {
  return Array.from({ length: CATALOG_BREACHES }, (_, i) => ({
    breachId: `Breach${i}`,
    title: `Breach ${i}`,
    // One in ten of the export's sites, the rest elsewhere.
    domain: i < 200 ? `forum.site${i * 10}-bench.com` : `elsewhere${i}-bench.org`,
    breachDate: `20${String(10 + (i % 14)).padStart(2, '0')}-0${1 + (i % 9)}-15`,
  }));
}

async function measureImport(): Promise<Metric> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-import-'));
  const file = path.join(dir, 'passwords.csv');
  writeFileSync(file, chromeExport(LOGINS));
  const catalog = benchCatalog();
  const secrets = new MemorySecretStore();
  let run = 0;
  const importer = new LoginImporter({ read: readLoginExport, maxBytes: MAX_EXPORT_BYTES, progress: () => undefined });
  const withDatabase = async (work: (db: ReturnType<typeof openAccountDatabase>['db']) => Promise<void>) => {
    const database = openAccountDatabase(path.join(dir, `account-${run++}.db`));
    try {
      return await timed(() => work(database.db));
    } finally {
      database.close();
    }
  };
  const job = () =>
    withDatabase(async (db) => {
      const outcome = await importer.run(
        { importId: `bench-${run}`, path: file },
        { db, hasher: () => passwordHasher(secrets), breaches: () => new SiteBreachIndex(catalog), stillOpen: () => true, importedAt: () => new Date().toISOString() },
      );
      if (outcome.imported !== LOGINS || outcome.breachedSites !== 200) throw new Error(`the import kept ${outcome.imported} logins at ${outcome.breachedSites} breached sites`);
    });
  const floor = () =>
    withDatabase(async (db) => {
      const parsed = await readLoginExport(readFileSync(file));
      const insert = db.prepare('INSERT INTO logins (import_id, site, url, title, username, password_hash) VALUES (1, NULL, ?, ?, ?, zeroblob(32))');
      db.transaction(() => {
        db.prepare("INSERT INTO login_imports (id, format, imported_at, logins, skipped, key_check) VALUES (1, 'chrome-csv', '', 0, 0, zeroblob(32))").run();
        for (const login of parsed.logins) insert.run(login.url, login.title, login.username);
      })();
    });
  try {
    await floor();
    await job();
    const jobRuns: Array<{ ms: number; cpu: number }> = [];
    const floorRuns: Array<{ ms: number; cpu: number }> = [];
    for (let i = 0; i < RUNS; i++) {
      floorRuns.push(await floor());
      jobRuns.push(await job());
    }
    const show = (runs: typeof jobRuns) => runs.map((one) => `${round(one.ms, 0)} ms (CPU ${round(one.cpu, 0)})`).join(' / ');
    console.log(`Import and match: ${LOGINS} logins, ${CATALOG_BREACHES} catalog breaches, ${RUNS} runs`);
    console.log(`  import ${show(jobRuns)}`);
    console.log(`  floor  ${show(floorRuns)} (read, parse, one INSERT per row)`);
    const value = median(jobRuns.map((one) => one.ms));
    const floorValue = median(floorRuns.map((one) => one.ms));
    return {
      value: round(value),
      unit: 'ms',
      floor: round(floorValue),
      ratio: round(value / floorValue),
      cpu: round(median(jobRuns.map((one) => one.cpu))),
      floor_cpu: round(median(floorRuns.map((one) => one.cpu))),
      logins: LOGINS,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const metrics: Record<string, Metric> = {};
  metrics.import_match_10000_logins = await measureImport();
  metrics.pwned_pass_2000_passwords = await measurePwnedPass();
  console.log(JSON.stringify({ bench: 'import', metrics }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
