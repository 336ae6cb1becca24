/**
 * Small seeded randomness for generated demo data. Not for anything secret: the point is that
 * the same seed gives the same catalog and exposures on every machine and Node version, which
 * `Math.random` cannot promise.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Index drawn in proportion to `weights` (non-negative, not all zero). */
  weightedIndex(weights: readonly number[]): number;
  /** Fisher–Yates shuffle of a copy. */
  shuffled<T>(items: readonly T[]): T[];
}

/** mulberry32: 32-bit state, good enough statistically for demo data and trivially portable. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError('cannot pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    weightedIndex(weights) {
      const total = weights.reduce((sum, w) => sum + w, 0);
      if (!(total > 0)) throw new RangeError('weights must have a positive sum');
      let target = next() * total;
      for (let i = 0; i < weights.length; i++) {
        target -= weights[i] as number;
        if (target < 0) return i;
      }
      // Floating-point leftovers land on the last positive weight.
      for (let i = weights.length - 1; i >= 0; i--) if ((weights[i] as number) > 0) return i;
      return weights.length - 1;
    },
    shuffled<T>(items: readonly T[]): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
      }
      return copy;
    },
  };
}

/** FNV-1a over UTF-16 code units: a stable 32-bit seed from a string. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
