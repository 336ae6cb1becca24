import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { SHARED_FIXTURES, skipWithoutFixture } from './fixtures.ts';

describe('fixture-dependent suites skip loudly, and never in CI', () => {
  const absent = path.join(SHARED_FIXTURES, 'no-such-fixture.json');

  it('outside CI: skips with one line naming the missing file', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(skipWithoutFixture(absent, 'the example tests', {})).toBe(true);
    expect(warn).toHaveBeenCalledExactlyOnceWith(expect.stringContaining(`the example tests: ${absent} is absent; skipped`));
    warn.mockRestore();
  });

  it('with CI set: a missing fixture fails instead of skipping', () => {
    expect(() => skipWithoutFixture(absent, 'the example tests', { CI: 'true' })).toThrow(/is absent; CI must run with \.\.\/shared beside the project/);
  });

  it('runs the suite when the fixture is there', () => {
    expect(skipWithoutFixture(import.meta.filename, 'this file', { CI: 'true' })).toBe(false);
  });
});
