import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey, type ProblemFieldError } from '../../../shared/api/index.ts';
import { isolateRefused } from '../../../electron/core/outbox/isolation.ts';
import { packIntents, type IntentAtom, type PackedRequest } from '../../../electron/core/outbox/packing.ts';

const BREACHES = ['A', 'B', 'C', 'D'];
const EMAILS = ['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example'];
const CLASSES = ['Email addresses', 'Passwords', 'Usernames', 'Names'];

type PointerMode = 'truthful' | 'none' | 'random';

const scenario = fc.record({
  keys: fc.uniqueArray(fc.tuple(fc.constantFrom(...BREACHES), fc.constantFrom(...EMAILS), fc.constantFrom(...CLASSES)), {
    selector: ([b, e, c]) => `${b}|${e}|${c}`,
    minLength: 1,
    maxLength: 64,
  }),
  resolved: fc.boolean(),
  // What the service refuses, as the contract does: an email a breach does not affect (404) or a class it lacks (400).
  badPairs: fc.uniqueArray(fc.tuple(fc.constantFrom(...BREACHES), fc.constantFrom(...EMAILS)), { maxLength: 4, selector: (p) => p.join('|') }),
  badClasses: fc.uniqueArray(fc.tuple(fc.constantFrom(...BREACHES), fc.constantFrom(...CLASSES)), { maxLength: 3, selector: (p) => p.join('|') }),
  maxItems: fc.integer({ min: 1, max: 6 }),
  randomPointers: fc.array(fc.tuple(fc.nat(8), fc.constantFrom('emails', 'dataClasses', 'breachId'), fc.nat(4)), { maxLength: 3 }),
});

const key = (a: IntentAtom) => `${a.breachId}|${a.email}|${a.classKey}`;

/** Sends with a service that refuses any request holding a bad intent, and follows the isolation plan. */
type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function simulate(s: Scenario, mode: PointerMode) {
  const atoms: IntentAtom[] = s.keys.map(([breachId, email, dataClass]) => ({ breachId, email, dataClass, classKey: dataClassKey(dataClass), resolved: s.resolved }));
  const badPair = new Set(s.badPairs.map((p) => p.join('|')));
  const badClass = new Set(s.badClasses.map((p) => `${p[0]}|${dataClassKey(p[1])}`));
  const isBad = (a: IntentAtom) => badPair.has(`${a.breachId}|${a.email}`) || badClass.has(`${a.breachId}|${a.classKey}`);
  const queue: PackedRequest[] = packIntents(atoms, { maxItems: s.maxItems, maxDataClassesPerItem: 100, maxEmailsPerItem: 1000, maxBodyBytes: 1 << 20 });
  const delivered: IntentAtom[] = [];
  const blamed: IntentAtom[] = [];
  let requests = 0;
  while (queue.length > 0) {
    const request = queue.shift()!;
    requests++;
    if (requests > 10_000) throw new Error('isolation does not end');
    if (!request.some((p) => p.atoms.some(isBad))) {
      delivered.push(...request.flatMap((p) => p.atoms));
      continue;
    }
    let errors: ProblemFieldError[] = [];
    if (mode === 'truthful')
      request.forEach(({ item }, i) => {
        item.emails!.forEach((email, j) => badPair.has(`${item.breachId}|${email}`) && errors.push({ pointer: `/${i}/emails/${j}`, message: 'email not found' }));
        item.dataClasses.forEach((name, j) => badClass.has(`${item.breachId}|${dataClassKey(name)}`) && errors.push({ pointer: `/${i}/dataClasses/${j}`, message: 'no such class' }));
      });
    if (mode === 'random') errors = s.randomPointers.map(([i, field, j]) => ({ pointer: field === 'breachId' ? `/${i}/breachId` : `/${i}/${field}/${j}`, message: 'somewhere' }));
    const { retry, blame } = isolateRefused(request, errors);
    const before = request.reduce((n, p) => n + p.atoms.length, 0);
    for (const part of retry) expect(part.reduce((n, p) => n + p.atoms.length, 0)).toBeLessThan(before);
    queue.unshift(...retry);
    blamed.push(...blame);
  }
  return { atoms, delivered, blamed, isBad, requests };
}

describe('isolateRefused', () => {
  for (const mode of ['truthful', 'none'] as const) {
    it(`marks exactly the refused intents, and sends all others (${mode} pointers)`, () => {
      fc.assert(
        fc.property(scenario, (s) => {
          const { atoms, delivered, blamed, isBad } = simulate(s, mode);
          expect(blamed.map(key).sort()).toEqual(atoms.filter(isBad).map(key).sort());
          expect(delivered.map(key).sort()).toEqual(
            atoms
              .filter((a) => !isBad(a))
              .map(key)
              .sort(),
          );
        }),
        { seed: mode === 'truthful' ? 11 : 12, numRuns: 500 },
      );
    });
  }

  it('ends, accounts for every intent once and never delivers a refused one, whatever the pointers say', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { atoms, delivered, blamed, isBad } = simulate(s, 'random');
        expect([...delivered, ...blamed].map(key).sort()).toEqual(atoms.map(key).sort());
        expect(delivered.some(isBad)).toBe(false);
      }),
      { seed: 13, numRuns: 500 },
    );
  });

  it('needs few requests when the service points at the culprit', () => {
    // 60 breaches × 4 emails, one email removed on the service side.
    const atoms: IntentAtom[] = [];
    for (let b = 0; b < 60; b++) for (const email of EMAILS) atoms.push({ breachId: `B${b}`, email, dataClass: 'Passwords', classKey: 'passwords', resolved: true });
    const s: Scenario = {
      keys: atoms.map((a) => [a.breachId, a.email, a.dataClass] as [string, string, string]),
      resolved: true,
      badPairs: Array.from({ length: 60 }, (_, b) => [`B${b}`, 'c@x.example'] as [string, string]),
      badClasses: [],
      maxItems: 1000,
      randomPointers: [],
    };
    const truthful = simulate(s, 'truthful');
    expect(truthful.blamed).toHaveLength(60);
    // the batch, then every good part together, then each named email alone
    expect(truthful.requests).toBe(1 + 1 + 60);
  });
});
