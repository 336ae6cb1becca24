import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolveInput } from '../../../shared/api/index.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { outboxRows } from '../../../electron/core/db/outboxQueries.ts';
import { UnknownTargetError } from '../../../electron/core/outbox/errors.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { countBreaches, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { catalogBreach, ContractServer } from '../helpers/contractServer.ts';
import { FROZEN_NOW, memoryDatabase } from '../helpers/fixtures.ts';

const EMAILS = ['a@example.com', 'b@example.com', 'c@example.com'];
const CLASSES = ['Email addresses', 'Passwords', 'Usernames'];
const BREACHES = ['One', 'Two', 'Three', 'Four'];
const EXPOSURES: Record<string, string[]> = { 'a@example.com': ['One', 'Two', 'Three'], 'b@example.com': ['One', 'Four'], 'c@example.com': ['Two', 'Three', 'Four'] };
const affects = (breachId: string, email: string) => EXPOSURES[email]!.includes(breachId);

/** A toggle the local store can take: its emails (none = every affected one) are affected by its breach. */
const toggle: fc.Arbitrary<ResolveInput> = fc
  .record({
    breachId: fc.constantFrom(...BREACHES),
    emails: fc.option(fc.subarray(EMAILS, { minLength: 1 }), { nil: undefined }),
    dataClasses: fc.option(fc.subarray([...CLASSES, 'PASSWORDS'], { minLength: 1 }), { nil: undefined }),
    resolved: fc.boolean(),
  })
  .map(({ breachId, emails, dataClasses, resolved }) => {
    const named = emails?.filter((email) => affects(breachId, email));
    return { breachId, ...(named && named.length > 0 ? { emails: named } : {}), ...(dataClasses ? { dataClasses } : {}), resolved };
  });

/** One call: a few toggles, naming the same breach more than once at times; sometimes one the store cannot take. */
const call = fc.record({ inputs: fc.array(toggle, { minLength: 1, maxLength: 8 }), refused: fc.option(fc.nat({ max: 8 }), { nil: undefined, freq: 4 }) });

/** Everything recording changes: the outbox rows, and the overlay every list, filter and count reads. */
function recorded(db: WritableDB): unknown {
  return {
    rows: outboxRows(db),
    list: queryBreaches(db, { includeSensitive: true, sort: 'unresolved', limit: 100 }),
    unresolved: queryBreaches(db, { includeSensitive: true, unresolvedDataClasses: ['Passwords'], limit: 100 }).total,
    counts: countBreaches(db, { includeSensitive: true }),
  };
}

describe('Outbox.record with many toggles in one call', () => {
  it('records exactly what the same toggles record one call each, and nothing of a call it refuses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 6 }), async (calls) => {
        const server = new ContractServer(
          BREACHES.map((id) => catalogBreach(id, CLASSES)),
          EXPOSURES,
        );
        try {
          // Some classes already confirmed, so toggles back to them are withdrawn rather than queued.
          await server.postResolutions([
            { breachId: 'One', dataClasses: ['Passwords'], resolved: true, emails: ['a@example.com'] },
            { breachId: 'Four', dataClasses: ['Usernames', 'Email addresses'], resolved: true },
          ]);
          const open = async () => {
            const db = memoryDatabase();
            await new Puller({ db, client: server }).pull();
            return { db, outbox: new Outbox({ db, sender: server, now: () => FROZEN_NOW.getTime() }) };
          };
          const batched = await open();
          const single = await open();
          for (const { inputs, refused } of calls) {
            if (refused !== undefined) {
              // An input naming what the store does not know, anywhere in the call: the whole call records nothing.
              const before = recorded(batched.db);
              const bad: ResolveInput = refused % 2 === 0 ? { breachId: 'Nope', resolved: true } : { breachId: 'Four', emails: ['a@example.com'], resolved: true };
              const withBad = [...inputs.slice(0, refused), bad, ...inputs.slice(refused)];
              expect(() => batched.outbox.record(withBad)).toThrow(UnknownTargetError);
              expect(recorded(batched.db)).toEqual(before);
              continue;
            }
            const { intents } = batched.outbox.record(inputs);
            let one = 0;
            for (const input of inputs) one += single.outbox.record([input]).intents;
            expect(intents).toBe(one);
            expect(recorded(batched.db)).toEqual(recorded(single.db));
          }
        } finally {
          server.close();
        }
      }),
      { numRuns: 120 },
    );
  });
});
