// A vitest reporter (vitest.config.ts) that counts the tests each store-contract suite ran on
// each dialect and fails the run when one dialect ran fewer than the other, or none: a suite whose
// PostgreSQL run was dropped (`describe.each(['sqlite'])`) otherwise passes on SQLite alone
// (issue 35, finding 9). Outside CI a PostgreSQL that could not start skips its tests loudly
// (test/support/postgres.ts), so a shortfall made only of skipped tests is a warning there; in CI
// (`CI` set) every shortfall fails the run.
import type { Reporter, TestModule } from 'vitest/node';
import { DIALECTS, type Dialect } from './storeDialects.ts';

/**
 * The store-contract suites (docs/testing.md, "Store contracts"): one suite of behavioural tests
 * run on SQLite and on PostgreSQL alike. Any `*.contract.test.ts` file counts as one too.
 */
export const STORE_CONTRACT_SUITES: readonly string[] = [
  'test/server/store/breachStore.contract.test.ts',
  'test/server/rtdb/store.test.ts',
  'test/server/store/lookupStore.test.ts',
  'test/server/identity/oidcAdapter.contract.test.ts',
  'test/server/searchStorage.contract.test.ts',
];

export function isStoreContractSuite(relativePath: string): boolean {
  const file = relativePath.split('\\').join('/');
  return STORE_CONTRACT_SUITES.includes(file) || file.endsWith('.contract.test.ts');
}

/** A top-level block's dialect, from its name as `describe.each` makes it ("… on sqlite", "RtdbStore on postgres"). */
export function dialectOf(blockName: string): Dialect | undefined {
  return DIALECTS.find((dialect) => new RegExp(`\\bon ${dialect}\\b`).test(blockName));
}

/** What one dialect's run of one suite did. */
export interface DialectCount {
  /** Tests that ran (passed or failed). */
  ran: number;
  /** Tests registered but not run (skipped, e.g. PostgreSQL could not start). */
  skipped: number;
}

export interface ParityProblem {
  file: string;
  dialect: Dialect;
  /** True: fails the run; false: a warning (outside CI, only skipped tests short). */
  fatal: boolean;
  message: string;
}

/** Compares each dialect's run of one suite with the fullest run; what falls short. */
export function parityProblems(file: string, counts: Partial<Record<Dialect, DialectCount>>, ci: boolean): ParityProblem[] {
  const of = (dialect: Dialect): DialectCount => counts[dialect] ?? { ran: 0, skipped: 0 };
  const most = Math.max(...DIALECTS.map((dialect) => of(dialect).ran));
  const registered = DIALECTS.reduce((sum, dialect) => sum + of(dialect).ran + of(dialect).skipped, 0);
  if (registered === 0) return [{ file, dialect: DIALECTS[0]!, fatal: true, message: `${file}: no block of the store contract names a dialect ("… on sqlite", "… on postgres")` }];
  // Nothing ran on any dialect: a name filter (-t) left this file out; there is nothing to compare.
  if (most === 0) return [];
  const problems: ParityProblem[] = [];
  for (const dialect of DIALECTS) {
    const { ran, skipped } = of(dialect);
    if (ran === most) continue;
    const others = DIALECTS.filter((other) => other !== dialect)
      .map((other) => `${of(other).ran} on ${other}`)
      .join(', ');
    // Outside CI the one excuse is a dialect skipped whole: its server could not start here.
    const skippedWhole = ran === 0 && skipped > 0;
    const what = ran + skipped === 0 ? 'ran no tests' : `ran ${ran} tests${skipped > 0 ? ` (${skipped} skipped)` : ''}`;
    problems.push({ file, dialect, fatal: ci || !skippedWhole, message: `${file}: the store contract ${what} on ${dialect}, against ${others}; every dialect must run the whole suite` });
  }
  return problems;
}

/** Each store-contract file's counts per dialect, from the finished modules. */
export function countByDialect(modules: readonly TestModule[], isSuite = isStoreContractSuite): Map<string, Partial<Record<Dialect, DialectCount>>> {
  const byFile = new Map<string, Partial<Record<Dialect, DialectCount>>>();
  for (const module of modules) {
    if (!isSuite(module.relativeModuleId)) continue;
    const counts: Partial<Record<Dialect, DialectCount>> = {};
    byFile.set(module.relativeModuleId, counts);
    for (const test of module.children.allTests()) {
      let block = test.parent;
      while (block.type === 'suite' && block.parent.type === 'suite') block = block.parent;
      const dialect = block.type === 'suite' ? dialectOf(block.name) : undefined;
      if (!dialect) continue;
      const count = (counts[dialect] ??= { ran: 0, skipped: 0 });
      const state = test.result().state;
      if (state === 'passed' || state === 'failed') count.ran++;
      else count.skipped++;
    }
  }
  return byFile;
}

export interface DialectParityOptions {
  /** Which files are store-contract suites (by path from the root); default {@link isStoreContractSuite}. */
  suites?: (relativePath: string) => boolean;
}

export default class DialectParityReporter implements Reporter {
  readonly #isSuite: (relativePath: string) => boolean;

  constructor(options: DialectParityOptions = {}) {
    this.#isSuite = options.suites ?? isStoreContractSuite;
  }

  onTestRunEnd(modules: readonly TestModule[], _errors: unknown, reason: 'passed' | 'failed' | 'interrupted'): void {
    if (reason === 'interrupted') return;
    const problems = [...countByDialect(modules, this.#isSuite)].flatMap(([file, counts]) => parityProblems(file, counts, Boolean(process.env.CI)));
    for (const problem of problems) {
      if (problem.fatal) console.error(`\n✗ dialect parity: ${problem.message}`);
      else console.warn(`\n!!! dialect parity: ${problem.message} (skipped whole, as when its database cannot start here; in CI this fails)`);
    }
    // Vitest only ever raises the exit code, so this stands.
    if (problems.some((problem) => problem.fatal)) process.exitCode = 1;
  }
}
