import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey, Limits, ResolutionRequest } from '../../../shared/api/index.ts';
import { buildItems, CONTRACT_LIMITS, packIntents, requestBody, type IntentAtom, type PackLimits } from '../../../electron/core/outbox/packing.ts';

const BREACHES = ['A', 'B', 'C', 'D', 'E', 'F'];
const EMAILS = ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example', 'e@x.example'];
const CLASSES = ['Email addresses', 'Passwords', 'Usernames', 'Phone numbers', 'Names'];

/** Distinct (breach, email, class) intents with random directions. */
const atoms = fc
  .uniqueArray(fc.tuple(fc.constantFrom(...BREACHES), fc.constantFrom(...EMAILS), fc.constantFrom(...CLASSES)), {
    selector: ([b, e, c]) => `${b}|${e}|${c}`,
    maxLength: 150,
  })
  .chain((keys) => fc.tuple(fc.constant(keys), fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length })))
  .map(([keys, directions]) => keys.map(([breachId, email, dataClass], i): IntentAtom => ({ breachId, email, dataClass, classKey: dataClassKey(dataClass), resolved: directions[i]! })));

const limits = fc.record({
  maxItems: fc.integer({ min: 1, max: 8 }),
  maxDataClassesPerItem: fc.integer({ min: 1, max: 4 }),
  maxEmailsPerItem: fc.integer({ min: 1, max: 4 }),
  maxBodyBytes: fc.constantFrom(400, 2000, CONTRACT_LIMITS.maxBodyBytes),
});

const key = (a: IntentAtom) => `${a.breachId}|${a.email}|${a.classKey}`;

function checkPacking(input: IntentAtom[], lim: PackLimits): void {
  const requests = packIntents(input, lim);
  const covered: string[] = [];
  for (const request of requests) {
    expect(request.length).toBeGreaterThan(0);
    expect(request.length).toBeLessThanOrEqual(lim.maxItems);
    expect(new Set(request.map((p) => p.item.breachId)).size, 'each breach once per request').toBe(request.length);
    expect(ResolutionRequest.safeParse(request.map((p) => p.item)).success).toBe(true);
    if (request.length > 1) expect(Buffer.byteLength(requestBody(request))).toBeLessThanOrEqual(lim.maxBodyBytes);
    for (const { item, atoms: carried } of request) {
      expect(item.dataClasses.length).toBeLessThanOrEqual(lim.maxDataClassesPerItem);
      expect(item.emails!.length).toBeLessThanOrEqual(lim.maxEmailsPerItem);
      // The item says exactly what its intents want: emails × classes, one direction.
      const product = item.emails!.flatMap((email) => item.dataClasses.map((name) => `${item.breachId}|${email}|${dataClassKey(name)}`)).sort();
      expect(carried.map(key).sort()).toEqual(product);
      expect(carried.every((a) => a.resolved === item.resolved)).toBe(true);
      covered.push(...carried.map(key));
    }
  }
  expect(covered.sort(), 'every intent exactly once').toEqual(input.map(key).sort());
}

describe('packIntents', () => {
  it('never breaks the contract and carries every intent exactly once', () => {
    fc.assert(
      fc.property(atoms, limits, (input, lim) => checkPacking(input, lim)),
      { seed: 20260214, numRuns: 400 },
    );
  });

  it('uses the fewest requests the items allow (byte limit aside)', () => {
    fc.assert(
      fc.property(atoms, limits, (input, lim) => {
        const roomy = { ...lim, maxBodyBytes: CONTRACT_LIMITS.maxBodyBytes };
        const items = buildItems(input, roomy);
        const perBreach = new Map<string, number>();
        for (const { item } of items) perBreach.set(item.breachId, (perBreach.get(item.breachId) ?? 0) + 1);
        const lowerBound = items.length === 0 ? 0 : Math.max(...perBreach.values(), Math.ceil(items.length / roomy.maxItems));
        expect(packIntents(input, roomy)).toHaveLength(lowerBound);
      }),
      { seed: 7, numRuns: 400 },
    );
  });

  it('packs 10,000 toggles over the contract limits into a handful of requests', () => {
    const many: IntentAtom[] = [];
    for (let b = 0; many.length < 10_000; b++)
      for (const email of EMAILS) for (const dataClass of CLASSES) many.push({ breachId: `Breach${b}`, email, dataClass, classKey: dataClassKey(dataClass), resolved: b % 2 === 0 });
    const requests = packIntents(many);
    checkPacking(many, CONTRACT_LIMITS);
    expect(requests).toHaveLength(Math.ceil(400 / Limits.maxItems));
  });

  it('keeps the contract and the fewest requests wherever the rows are stored', () => {
    fc.assert(
      fc.property(
        atoms.chain((input) => fc.tuple(fc.constant(input), fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: input.length, maxLength: input.length }))),
        limits,
        ([input, rowIds], lim) => {
          const roomy = { ...lim, maxBodyBytes: CONTRACT_LIMITS.maxBodyBytes };
          const position = (atom: IntentAtom) => rowIds[input.indexOf(atom)]!;
          const requests = packIntents(input, roomy, position);
          const covered = requests.flatMap((request) => request.flatMap((packed) => packed.atoms.map(key)));
          expect(covered.sort()).toEqual(input.map(key).sort());
          for (const request of requests) {
            expect(request.length).toBeGreaterThan(0);
            expect(request.length).toBeLessThanOrEqual(roomy.maxItems);
            expect(new Set(request.map((p) => p.item.breachId)).size).toBe(request.length);
          }
          expect(requests).toHaveLength(packIntents(input, roomy).length);
        },
      ),
      { seed: 11, numRuns: 400 },
    );
  });

  it('gives each request a run of neighbouring rows, so a settle writes its own pages', () => {
    // One email and one direction per breach (one item each), breaches stored in a shuffled order.
    fc.assert(
      fc.property(
        fc.shuffledSubarray(
          Array.from({ length: 60 }, (_, i) => i),
          { minLength: 60 },
        ),
        fc.integer({ min: 2, max: 7 }),
        (storage, maxItems) => {
          const input: IntentAtom[] = [];
          const rowOf = new Map<IntentAtom, number>();
          storage.forEach((breach, slot) => {
            for (const [c, dataClass] of CLASSES.slice(0, 3).entries()) {
              const atom: IntentAtom = { breachId: `B${String(breach).padStart(2, '0')}`, email: EMAILS[0]!, dataClass, classKey: dataClassKey(dataClass), resolved: true };
              input.push(atom);
              rowOf.set(atom, slot * 3 + c + 1);
            }
          });
          const requests = packIntents(input, { ...CONTRACT_LIMITS, maxItems }, (atom) => rowOf.get(atom)!);
          const spans = requests.map((request) => {
            const rows = request.flatMap((packed) => packed.atoms.map((atom) => rowOf.get(atom)!));
            return [Math.min(...rows), Math.max(...rows)] as const;
          });
          for (let r = 1; r < spans.length; r++) expect(spans[r]![0], `request ${r} starts after request ${r - 1} ends`).toBeGreaterThan(spans[r - 1]![1]);
        },
      ),
      { seed: 12, numRuns: 200 },
    );
  });

  it('refuses the same intent twice (the outbox coalesces before packing)', () => {
    const atom: IntentAtom = { breachId: 'A', email: 'a@x.example', dataClass: 'Passwords', classKey: 'passwords', resolved: true };
    expect(() => packIntents([atom, { ...atom, resolved: false }])).toThrow(/given twice/);
  });
});
