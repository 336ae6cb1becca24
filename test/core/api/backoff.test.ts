import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BackoffState, backoffDelay, DEFAULT_BACKOFF } from '../../../electron/core/api/backoff.ts';

describe('backoffDelay', () => {
  it('draws uniformly under a ceiling that doubles up to the cap (full jitter)', () => {
    const policy = { baseMs: 1000, capMs: 10_000, maxRetryAfterMs: 60_000 };
    expect([1, 2, 3, 4, 5, 9].map((n) => backoffDelay(n, policy, () => 0.999999))).toEqual([999, 1999, 3999, 7999, 9999, 9999]);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(2000);
  });

  it('never answers sooner than Retry-After, and clamps an absurd one', () => {
    const policy = { baseMs: 1000, capMs: 10_000, maxRetryAfterMs: 60_000 };
    expect(backoffDelay(1, policy, () => 0.1, 5000)).toBe(5000);
    expect(backoffDelay(5, policy, () => 0.9, 5000)).toBe(9000);
    expect(backoffDelay(1, policy, () => 0.1, 86_400_000)).toBe(60_000);
    expect(backoffDelay(1, policy, () => 0.1, -5)).toBe(100);
  });

  it('stays within [Retry-After, max(cap, Retry-After)] for any failure count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.option(fc.nat(1_000_000), { nil: undefined }),
        (failures, draw, retryAfter) => {
          const delay = backoffDelay(failures, DEFAULT_BACKOFF, () => draw, retryAfter);
          expect(Number.isInteger(delay)).toBe(true);
          expect(delay).toBeGreaterThanOrEqual(retryAfter ?? 0);
          expect(delay).toBeLessThanOrEqual(Math.max(DEFAULT_BACKOFF.capMs, retryAfter ?? 0));
        },
      ),
      { seed: 3, numRuns: 300 },
    );
  });
});

describe('BackoffState', () => {
  const policy = { baseMs: 1000, capMs: 10_000, maxRetryAfterMs: 60_000 };

  it('waits longer after each failure in a row, never less than Retry-After, until a success', () => {
    let now = 0;
    const state = new BackoffState({ policy, random: () => 0.5, now: () => now });
    expect(state.waiting()).toBe(false);
    expect(state.fail('server', '503: busy')).toBe(500);
    expect(state.fail('server', '503: busy')).toBe(1000);
    expect(state.fail('rate-limited', '429', 30_000)).toBe(30_000);
    expect({ kind: state.kind, error: state.error, waiting: state.waiting() }).toEqual({ kind: 'rate-limited', error: '429', waiting: true });
    now = 30_000;
    expect(state.waiting()).toBe(false);
    state.succeed();
    expect(state.fail('server', 'again')).toBe(30_000 + 500);
  });

  it('ends a wait the network caused when the host says it is back, not one the service asked for', () => {
    const state = new BackoffState({ policy, random: () => 0.5, now: () => 0 });
    state.fail('rate-limited', '429', 30_000);
    expect(state.connectivityRestored()).toBe(false);
    expect(state.waiting()).toBe(true);
    state.fail('offline', 'could not reach the service');
    expect(state.connectivityRestored()).toBe(true);
    expect(state.waiting()).toBe(false);
  });
});
