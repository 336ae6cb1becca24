// The dialect-parity reporter (test/support/dialectParity.ts) on a store-contract suite in
// miniature (fixtures/dialectParity), run by a real vitest: a suite whose PostgreSQL run was
// dropped, or that ran fewer tests there, fails the run; a PostgreSQL skipped whole (it could not
// start) is a warning outside CI and a failure in CI (issue 35, finding 9).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dialectOf, isStoreContractSuite, parityProblems } from '../support/dialectParity.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runFixture(slip: string, ci: boolean): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = { ...process.env, PARITY_SLIP: slip };
  delete env.CI;
  if (ci) env.CI = 'true';
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/tools/fixtures/dialectParity/vitest.config.ts'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: run.stdout + run.stderr };
}

describe('dialect parity of store-contract suites', () => {
  it('passes a suite that ran the same tests on both dialects, and says nothing', () => {
    const { status, output } = runFixture('none', false);
    expect(status, output).toBe(0);
    expect(output).not.toContain('dialect parity');
  });

  it('fails a suite whose PostgreSQL run was dropped, or ran fewer tests, even outside CI', () => {
    const dropped = runFixture('drop', false);
    expect(dropped.status, dropped.output).toBe(1);
    expect(dropped.output).toContain('✗ dialect parity: test/tools/fixtures/dialectParity/suite.contract.fixture.ts: the store contract ran no tests on postgres, against 3 on sqlite');
    const fewer = runFixture('fewer', false);
    expect(fewer.status, fewer.output).toBe(1);
    expect(fewer.output).toContain('ran 2 tests (1 skipped) on postgres, against 3 on sqlite');
  });

  it('warns of a PostgreSQL skipped whole outside CI, and fails it in CI', () => {
    const local = runFixture('skip', false);
    expect(local.status, local.output).toBe(0);
    expect(local.output).toContain('!!! dialect parity:');
    expect(local.output).toContain('in CI this fails');
    const ci = runFixture('skip', true);
    expect(ci.status, ci.output).toBe(1);
    expect(ci.output).toContain('✗ dialect parity:');
  });

  it('knows the store-contract suites and reads the dialect from a block name', () => {
    expect(isStoreContractSuite('test/server/store/lookupStore.test.ts')).toBe(true);
    expect(isStoreContractSuite('test/server/anything.contract.test.ts')).toBe(true);
    expect(isStoreContractSuite('test/server/hardening/attackerFindings.test.ts')).toBe(false);
    expect(dialectOf('the breach store contract on postgres')).toBe('postgres');
    expect(dialectOf('RtdbStore on sqlite')).toBe('sqlite');
    expect(dialectOf('the PostgreSQL search index')).toBeUndefined();
    // A file whose blocks name no dialect has nothing to compare: that is a failure too.
    expect(parityProblems('x.contract.test.ts', {}, false)).toMatchObject([{ fatal: true }]);
    // A name filter that ran nothing here leaves nothing to compare.
    expect(parityProblems('x.contract.test.ts', { sqlite: { ran: 0, skipped: 3 }, postgres: { ran: 0, skipped: 3 } }, true)).toEqual([]);
  });
});
