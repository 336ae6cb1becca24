// Third-party data beside the project (../shared/fixtures, read-only). A fresh clone has no
// ../shared, so suites that need it are skipped there, saying so; CI always has it, so with
// `CI` set a missing fixture is a failure, never a quiet skip.
import { existsSync } from 'node:fs';
import path from 'node:path';

export const SHARED_FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures');

/**
 * True when the suite needing `file` must be skipped (the file is absent, outside CI), after one
 * line saying what is skipped and why. With `CI` set an absent file throws instead, failing the
 * test file with that sentence.
 */
export function skipWithoutFixture(file: string, what: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (existsSync(file)) return false;
  const message = `${what}: ${file} is absent`;
  if (env.CI) throw new Error(`${message}; CI must run with ../shared beside the project, so this is a failure, not a skip`);
  console.warn(`${message}; skipped (a fresh clone has no ../shared; with CI set this fails)`);
  return true;
}
