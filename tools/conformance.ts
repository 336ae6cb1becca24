// `npm run test:conformance [-- --store sqlite|postgres] [--instances N]`: the conformance suite
// against SQLite, against PostgreSQL, and against two instances sharing one PostgreSQL database
// with requests alternating between them (all three without flags). PostgreSQL is a private
// server in a temporary folder (tools/privatePostgres.ts); where it cannot start, its runs are
// skipped with a loud message, except in CI, where that fails the run.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { startPrivatePostgres, type PrivatePostgres } from './privatePostgres.ts';

const { values, positionals } = parseArgs({
  options: { store: { type: 'string' }, instances: { type: 'string' } },
  allowPositionals: true,
});
const store = values.store;
if (store !== undefined && store !== 'sqlite' && store !== 'postgres') throw new Error(`--store must be sqlite or postgres, not ${JSON.stringify(store)}`);
const instances = Number(values.instances ?? 1);
if (!Number.isInteger(instances) || instances < 1 || instances > 8) throw new Error(`--instances must be a whole number from 1 to 8, not ${JSON.stringify(values.instances)}`);
if (instances > 1 && store === 'sqlite') throw new Error('several instances share one PostgreSQL database: use --store postgres');

const runs: { name: string; store: 'sqlite' | 'postgres'; instances: number }[] =
  store === undefined && values.instances === undefined
    ? [
        { name: 'SQLite', store: 'sqlite', instances: 1 },
        { name: 'PostgreSQL', store: 'postgres', instances: 1 },
        { name: 'two instances on one PostgreSQL', store: 'postgres', instances: 2 },
      ]
    : [{ name: `${store ?? 'postgres'} × ${instances}`, store: store ?? (instances > 1 ? 'postgres' : 'sqlite'), instances }];

let postgres: PrivatePostgres | undefined;
if (runs.some((run) => run.store === 'postgres')) {
  try {
    postgres = await startPrivatePostgres();
  } catch (error) {
    const message = `PostgreSQL conformance runs cannot start: ${(error as Error).message}`;
    if (process.env.CI) {
      console.error(message);
      process.exit(1);
    }
    console.warn(`\n!!! SKIPPED: ${message}\n!!! Only the SQLite run is checked. Install PostgreSQL (apt-get install postgresql) to run them.\n`);
  }
}

const results: string[] = [];
let failed = false;
try {
  for (const run of runs) {
    if (run.store === 'postgres' && !postgres) {
      results.push(`SKIPPED  ${run.name} (PostgreSQL unavailable)`);
      continue;
    }
    console.log(`\n=== conformance: ${run.name} ===`);
    const env = { ...process.env, ...(run.store === 'postgres' && postgres ? { CONFORMANCE_POSTGRES_URL: postgres.url } : {}), CONFORMANCE_INSTANCES: String(run.instances) };
    const result = spawnSync('npx', ['vitest', 'run', 'test/conformance', ...positionals], { stdio: 'inherit', env });
    const ok = result.status === 0;
    failed ||= !ok;
    results.push(`${ok ? 'passed ' : 'FAILED '}  ${run.name}`);
  }
} finally {
  await postgres?.close();
}
console.log(`\nconformance runs:\n${results.map((line) => `  ${line}`).join('\n')}`);
process.exit(failed ? 1 : 0);
