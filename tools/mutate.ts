// A repeatable mutation run: breaks a listed set of core rules one at a time (one line each),
// runs the tests that should notice, and reports which test caught each break. A break nobody
// catches is a gap in the suite. Not part of `npm test`; `npm run mutate` (or
// `npm run mutate -- <name>…` for some). Every file is restored after its run, also on Ctrl-C.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Mutation {
  name: string;
  /** The rule that breaks, in words. */
  rule: string;
  file: string;
  find: string;
  replace: string;
  /** Test files (or folders) that should catch it. */
  tests: string[];
}

export const MUTATIONS: Mutation[] = [
  {
    name: 'outbox-version',
    rule: 'a re-toggled outbox row gets a new version (so an older send cannot settle it)',
    file: 'electron/core/db/outboxQueries.ts',
    find: 'version = version + 1',
    replace: 'version = version',
    tests: ['test/core/outbox'],
  },
  {
    name: 'outbox-settle-any-version',
    rule: 'a delivered row leaves only if the version sent is still its version',
    file: 'electron/core/db/outboxQueries.ts',
    find: "'DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?)) AND version = sent_version').run(json).changes;",
    replace: "'DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?))').run(json).changes;",
    tests: ['test/core/outbox'],
  },
  {
    name: 'verifier-audience',
    rule: 'the API accepts only tokens for its own audience',
    file: 'server/auth/jwtVerifier.ts',
    find: '          audience: options.audience,\n',
    replace: '',
    tests: ['test/conformance/auth.test.ts'],
  },
  {
    name: 'verifier-issuer',
    rule: 'the API accepts only tokens from its issuer',
    file: 'server/auth/jwtVerifier.ts',
    find: '          issuer: options.issuer,\n',
    replace: '',
    tests: ['test/conformance/auth.test.ts'],
  },
  {
    name: 'verifier-typ',
    rule: 'the API accepts only access tokens (typ at+jwt), not ID tokens',
    file: 'server/auth/jwtVerifier.ts',
    find: '          typ: ACCESS_TOKEN_TYP,\n',
    replace: '',
    tests: ['test/conformance/auth.test.ts'],
  },
  {
    name: 'verifier-exp-required',
    rule: 'a token without an expiry is refused',
    file: 'server/auth/jwtVerifier.ts',
    find: "requiredClaims: ['exp', 'sub']",
    replace: "requiredClaims: ['sub']",
    tests: ['test/conformance/auth.test.ts'],
  },
  {
    name: 'browser-host-host-check',
    rule: 'the browser host answers only requests whose Host names it (DNS rebinding)',
    file: 'electron/browser-host/guards.ts',
    find: "if (!host || !this.allowedOrigins().includes(`http://${host}`)) return 'unexpected Host header';",
    replace: "if (!host) return 'unexpected Host header';",
    tests: ['test/browser-host'],
  },
  {
    name: 'host-gate-skips-rtdb',
    rule: 'the Host gate runs before routing, for every mount (issue 26: a gate that skipped /rtdb passed every test)',
    file: 'server/http/mounts.ts',
    find: '  checkHost(req, hostNames);',
    replace: "  if (!(req.url ?? '').startsWith('/rtdb')) checkHost(req, hostNames);",
    tests: ['test/server/hardening/hostGate.test.ts'],
  },
  {
    name: 'rtdb-if-match-before-rules',
    // The whole condition, readability check included, ahead of the rules (the second copy after
    // them never runs): the anonymous cases are refused before their body is read and cannot tell,
    // only a rule that reads the body can (issue 35, finding 9: this passed every test).
    rule: 'a conditional write is decided by the rules before its ETag is compared (issue 26, finding 1)',
    file: 'server/rtdb/routes.ts',
    find: "      // The rules first: a condition compared before them would tell anyone the data's ETag, or,\n",
    replace: `      if (ifMatch !== undefined) {
        const { value: current, etag: currentEtag } = await tx.snapshot(path);
        if (ifMatch !== currentEtag) {
          // Only a caller who may read the location learns what it holds (the real database's 412 carries it).
          const readable = caller.kind === 'admin' || (await canRead(caller, path, (location) => tx.get(location)));
          return readable ? { status: 412 as const, current, currentEtag } : { status: 412 as const };
        }
      }
      // The rules first: a condition compared before them would tell anyone the data's ETag, or,\n`,
    tests: ['test/server/hardening/attackerFindings.test.ts', 'test/server/hardening/routeWalk.test.ts'],
  },
  {
    name: 'rtdb-tree-with-prototype',
    rule: 'database trees have no prototype, so a "__proto__" key is data (issue 26, finding 2)',
    file: 'server/rtdb/tree.ts',
    find: '  const object = Object.create(null) as Record<string, T>;',
    replace: '  const object = {} as Record<string, T>;',
    tests: ['test/server/hardening/attackerFindings.test.ts', 'test/server/hardening/prototypeKeys.test.ts'],
  },
  {
    name: 'filter-inherited-fields',
    rule: 'a search filter field is an own property of the field schema, never an inherited one (issue 26, finding 7)',
    file: 'shared/search/filter.ts',
    find: '  return Object.hasOwn(fields, field) ? fields[field] : undefined;',
    replace: '  return fields[field];',
    tests: ['test/server/hardening/attackerFindings.test.ts'],
  },
  // Writes that must land whole (issue 27): each break runs the write with every statement
  // committing alone. Validation happens before any write, so only a write failing part-way (the
  // contract suites' triggers) or a racing writer can tell.
  {
    name: 'postgres-resolution-batch-autocommit',
    rule: 'a PostgreSQL resolution batch is one transaction (issue 27: without it every test passed)',
    file: 'server/breaches/postgres/PostgresBreachStore.ts',
    find: "    await this.#transaction('SERIALIZABLE', async (client) => {",
    replace: '    await ((work: (client: pg.PoolClient) => Promise<Set<string>>) => this.#pool.connect().then((client) => work(client).finally(() => client.release())))(async (client) => {',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'postgres-catalog-replacement-autocommit',
    rule: 'a PostgreSQL catalog replacement is one transaction (readers never see it half done)',
    file: 'server/breaches/postgres/PostgresBreachStore.ts',
    find: "    await this.#transaction('READ COMMITTED', async (client) => {\n      // One catalog replacement at a time across instances",
    replace:
      '    await ((work: (client: pg.PoolClient) => Promise<void>) => this.#pool.connect().then((client) => work(client).finally(() => client.release())))(async (client) => {\n      // One catalog replacement at a time across instances',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'sqlite-resolution-batch-autocommit',
    rule: 'a SQLite resolution batch is one transaction',
    file: 'server/breaches/SqliteBreachStore.ts',
    find: 'this.#applyResolutionChanges = db.transaction(',
    replace: 'this.#applyResolutionChanges = ((fn: (changes: readonly ResolutionChange[], now: string) => Set<string>) => Object.assign(fn, { immediate: fn }) as never)(',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'sqlite-exposures-autocommit',
    rule: "a SQLite exposure record is replaced in one transaction (never an email's set half written)",
    file: 'server/breaches/SqliteBreachStore.ts',
    find: 'this.#setExposures = db.transaction(',
    replace: 'this.#setExposures = ((fn: (email: string, breachIds: readonly string[], invented: boolean) => void) => Object.assign(fn, { immediate: fn }) as never)(',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'sqlite-catalog-replacement-autocommit',
    rule: 'a SQLite catalog replacement is one transaction (with its removed breaches, origin and change records)',
    file: 'server/breaches/SqliteBreachStore.ts',
    find: 'this.#replaceCatalog = db.transaction(',
    replace: 'this.#replaceCatalog = ((fn: (breaches: readonly Breach[], replacement: CatalogReplacement | undefined) => number) => Object.assign(fn, { immediate: fn }) as never)(',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'lookup-postgres-autocommit',
    rule: "the PostgreSQL lookup queue's multi-statement writes are transactions",
    file: 'server/hibp/PostgresLookupStore.ts',
    find: '    return transaction(this.#pool, this.#where, { attempts: ATTEMPTS }, work);',
    replace: '    return this.#pool.connect().then((client) => work(client).finally(() => client.release()));',
    tests: ['test/server/store/lookupStore.test.ts'],
  },
  {
    name: 'lookup-sqlite-autocommit',
    rule: "the SQLite lookup queue's multi-statement writes are transactions",
    file: 'server/hibp/SqliteLookupStore.ts',
    find: '    return this.#db.transaction(work).immediate();',
    replace: '    return work();',
    tests: ['test/server/store/lookupStore.test.ts'],
  },
  // A breach that left the catalog stays resolvable by its last known data classes (issue 25).
  {
    name: 'sqlite-removed-breach-unresolvable',
    rule: 'SQLite resolves a removed breach by its last known data classes',
    file: 'server/breaches/SqliteBreachStore.ts',
    find: 'for (const breach of [...[...removed.values()].map((r) => r.breach), ...breaches])',
    replace: 'for (const breach of breaches)',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  {
    name: 'postgres-removed-breach-unresolvable',
    rule: 'PostgreSQL resolves a removed breach by its last known data classes',
    file: 'server/breaches/postgres/PostgresBreachStore.ts',
    find: "\n         UNION ALL SELECT id, breach->'dataClasses' FROM removed_breaches WHERE id = ANY($1::text[]) AND id NOT IN (SELECT id FROM breaches)`",
    replace: '`',
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
  // The lookup queue's order (issue 35, finding 9): a re-check chosen before a never-checked
  // address passed every test until one case made both due at once.
  {
    name: 'lookup-sqlite-rechecks-first',
    rule: 'SQLite hands out a never-checked address before a re-check due at the same time',
    file: 'server/hibp/SqliteLookupStore.ts',
    find: "  new: 'SELECT email FROM address_checks WHERE via_domain = 0 AND checked_at IS NULL AND due_at <= ? AND lease_until <= ? ORDER BY added_at, email LIMIT 1',",
    replace: "  new: 'SELECT email FROM address_checks WHERE via_domain = 0 AND due_at <= ? AND lease_until <= ? ORDER BY checked_at IS NULL, checked_at, added_at, email LIMIT 1',",
    tests: ['test/server/store/lookupStore.test.ts'],
  },
  {
    name: 'lookup-postgres-rechecks-first',
    rule: 'PostgreSQL hands out a never-checked address before a re-check due at the same time',
    file: 'server/hibp/PostgresLookupStore.ts',
    find: `  new: \`SELECT email AS key FROM address_checks WHERE NOT via_domain AND checked_at IS NULL AND due_at <= $1 AND lease_until <= $1
        ORDER BY added_at, email COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED\`,`,
    replace: `  new: \`SELECT email AS key FROM address_checks WHERE NOT via_domain AND due_at <= $1 AND lease_until <= $1
        ORDER BY checked_at NULLS LAST, added_at, email COLLATE "C" LIMIT 1 FOR UPDATE SKIP LOCKED\`,`,
    tests: ['test/server/store/lookupStore.test.ts'],
  },
  {
    name: 'lookup-rechecks-first',
    rule: 'the claim order (both dialects) takes never-checked addresses before re-checks',
    file: 'server/hibp/lookupRules.ts',
    find: "const CLAIM_ORDER: readonly ClaimQueue[] = ['new', 'domain', 'stealer', 'recheck'];",
    replace: "const CLAIM_ORDER: readonly ClaimQueue[] = ['recheck', 'new', 'domain', 'stealer'];",
    tests: ['test/server/store/lookupStore.test.ts'],
  },
  {
    name: 'sensitive-breach-notified',
    rule: 'a new sensitive breach reaches neither the banner nor the OS notification while sensitive breaches are hidden (issue 35, finding 9)',
    file: 'electron/core/handlers/afterSync.ts',
    find: '    deps.notifier.newBreaches(fresh);',
    replace: '    deps.notifier.newBreaches(marked);',
    tests: ['test/core/handlers/afterSync.test.ts', 'test/core/sensitivePolicy.test.ts'],
  },
  {
    name: 'search-index-kept-after-sign-out',
    rule: "signing out lets the account's in-memory search index go (issue 35, finding 9)",
    file: 'electron/core/app.ts',
    find: '      // Nothing of the account stays in memory: its search index goes with it.\n      closeSearch();\n',
    replace: '',
    tests: ['test/core/app.test.ts'],
  },
  {
    name: 'hibp-key-in-summary',
    rule: 'the start-up summary names the HIBP key by its last 4 characters only (issue 35, finding 9)',
    file: 'server/hibp/index.ts',
    find: "  const key = `key ${describeHibpKey(config.hibpApiKey ?? '')}`;",
    replace: "  const key = `key ${config.hibpApiKey ?? ''}`;",
    tests: ['test/server/hibp/startupSummary.test.ts', 'test/server/hibp/config.test.ts', 'test/server/hibp/exposures.test.ts'],
  },
  {
    name: 'contract-suite-sqlite-only',
    rule: 'every store-contract suite runs on PostgreSQL as on SQLite (issue 35, finding 9: a suite run on SQLite alone passed)',
    file: 'test/server/store/breachStore.contract.test.ts',
    find: "describe.each(DIALECTS)('the breach store contract on %s'",
    replace: "describe.each(DIALECTS.filter((dialect) => dialect === 'sqlite'))('the breach store contract on %s'",
    tests: ['test/server/store/breachStore.contract.test.ts'],
  },
];

interface Outcome {
  name: string;
  caught: boolean;
  by: string[];
  seconds: number;
}

interface VitestJson {
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}

let restore: (() => void) | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    restore?.();
    process.exit(130);
  });
}

function run(mutation: Mutation): Outcome {
  const file = path.join(ROOT, mutation.file);
  const original = readFileSync(file, 'utf8');
  const at = original.indexOf(mutation.find);
  if (at < 0 || original.indexOf(mutation.find, at + 1) >= 0) {
    throw new Error(`${mutation.name}: the line to break must occur exactly once in ${mutation.file}; the source changed, update tools/mutate.ts`);
  }
  const outDir = mkdtempSync(path.join(tmpdir(), 'mutate-'));
  const report = path.join(outDir, 'report.json');
  const started = Date.now();
  restore = () => writeFileSync(file, original);
  try {
    writeFileSync(file, original.slice(0, at) + mutation.replace + original.slice(at + mutation.find.length));
    // The dialect-parity reporter too (test/support/dialectParity.ts): a suite that ran fewer tests on one dialect is caught by the run, not by a test.
    const run = spawnSync(
      process.execPath,
      [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...mutation.tests, '--reporter=json', `--outputFile.json=${report}`, '--reporter=./test/support/dialectParity.ts'],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const json = JSON.parse(readFileSync(report, 'utf8')) as VitestJson;
    const by = json.testResults.flatMap((file) => {
      const failed = file.assertionResults.filter((test) => test.status === 'failed').map((test) => `${path.relative(ROOT, file.name)} > ${test.fullName}`);
      // A file that fails before any test ran (the mutation broke loading it) counts too.
      return failed.length > 0 || file.status !== 'failed' ? failed : [`${path.relative(ROOT, file.name)} (failed to run: ${(file.message ?? '').split('\n')[0]})`];
    });
    by.push(...(run.stderr.match(/✗ dialect parity: .*/g) ?? []));
    return { name: mutation.name, caught: by.length > 0, by, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    restore();
    restore = undefined;
    rmSync(outDir, { recursive: true, force: true });
  }
}

function main(): void {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !MUTATIONS.some((m) => m.name === name));
  if (unknown.length > 0) throw new Error(`unknown mutation(s): ${unknown.join(', ')}; known: ${MUTATIONS.map((m) => m.name).join(', ')}`);
  const chosen = wanted.length > 0 ? MUTATIONS.filter((m) => wanted.includes(m.name)) : MUTATIONS;
  const outcomes: Outcome[] = [];
  for (const mutation of chosen) {
    console.log(`\n${mutation.name}: ${mutation.rule}\n  broke ${mutation.file}: ${JSON.stringify(mutation.find.trim())} → ${JSON.stringify(mutation.replace.trim())}`);
    const outcome = run(mutation);
    outcomes.push(outcome);
    if (outcome.caught) for (const test of outcome.by) console.log(`  caught by ${test}`);
    else console.log(`  NOT CAUGHT by ${mutation.tests.join(', ')}`);
    console.log(`  (${outcome.seconds} s)`);
  }
  const missed = outcomes.filter((o) => !o.caught).map((o) => o.name);
  console.log(`\n${outcomes.length - missed.length} of ${outcomes.length} mutations caught${missed.length ? `; missed: ${missed.join(', ')}` : ''}`);
  console.log(JSON.stringify({ mutate: { caught: outcomes.length - missed.length, total: outcomes.length, missed } }));
  process.exitCode = missed.length > 0 ? 1 : 0;
}

main();
