import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey } from '../../../shared/api/index.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { pendingRows } from '../../../electron/core/db/outboxQueries.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { Puller } from '../../../electron/core/sync/Puller.ts';
import { catalogBreach, ContractServer, type Fault } from '../helpers/contractServer.ts';
import { FROZEN_NOW, memoryDatabase } from '../helpers/fixtures.ts';

const EMAILS = ['a@example.com', 'b@example.com', 'c@example.com'];
const CLASSES = ['Email addresses', 'Passwords', 'Usernames'];
const BREACHES = ['One', 'Two', 'Three', 'Four'];
/** Who each breach affects on the service. */
const EXPOSURES: Record<string, string[]> = { 'a@example.com': ['One', 'Two', 'Three'], 'b@example.com': ['One', 'Four'], 'c@example.com': ['Two', 'Three', 'Four'] };
const affected = (breach: string, email: string) => EXPOSURES[email]!.includes(breach);

const toggle = fc.record({
  kind: fc.constant('toggle' as const),
  breachId: fc.constantFrom(...BREACHES),
  email: fc.option(fc.constantFrom(...EMAILS), { nil: undefined }),
  dataClass: fc.option(fc.constantFrom(...CLASSES, 'PASSWORDS', 'email addresses'), { nil: undefined }),
  resolved: fc.boolean(),
});
const flush = fc.record({
  kind: fc.constant('flush' as const),
  faults: fc.array(fc.constantFrom<Fault>('drop-before', 'drop-after', 'server-error', 'rate-limited', 'unauthorized'), { maxLength: 2 }),
});
const pull = fc.constant({ kind: 'pull' as const });
const restart = fc.constant({ kind: 'restart' as const });
const operations = fc.array(fc.oneof({ weight: 6, arbitrary: toggle }, { weight: 2, arbitrary: flush }, { weight: 1, arbitrary: pull }, { weight: 1, arbitrary: restart }), {
  minLength: 1,
  maxLength: 40,
});

/** What the person sees as resolved: `breach|email|class key`. */
function localView(db: WritableDB): Set<string> {
  const keys = new Set<string>();
  for (const item of queryBreaches(db, { includeSensitive: true, limit: 10_000 }).items)
    for (const account of item.breachedAccounts) for (const name of Object.keys(account.resolvedDataClasses)) keys.add(`${item.breach.id}|${account.email}|${dataClassKey(name)}`);
  return keys;
}

describe('outbox against a plain model of the last intents', () => {
  it('shows every toggle at once, coalesces to the last intent per key, and delivers exactly that', async () => {
    await fc.assert(
      fc.asyncProperty(operations, async (ops) => {
        const server = new ContractServer(
          BREACHES.map((id) => catalogBreach(id, CLASSES)),
          EXPOSURES,
        );
        try {
          // Some state on the service before the person starts.
          await server.postResolutions([{ breachId: 'One', dataClasses: ['Passwords'], resolved: true, emails: ['a@example.com'] }]);
          const db = memoryDatabase();
          const clock = { now: FROZEN_NOW.getTime() };
          const make = () => new Outbox({ db, sender: server, now: () => clock.now, random: () => 0.5 });
          let outbox = make();
          const puller = new Puller({ db, client: server });
          await puller.pull();
          const model = new Set(server.resolvedKeys());
          const touched = new Set<string>();

          for (const op of ops) {
            if (op.kind === 'toggle') {
              const emails = op.email ? [op.email] : EMAILS.filter((e) => affected(op.breachId, e));
              const classes = op.dataClass ? [op.dataClass] : CLASSES;
              if (op.email && !affected(op.breachId, op.email)) {
                expect(() => outbox.record([{ breachId: op.breachId, emails: [op.email!], resolved: op.resolved }])).toThrow();
                continue;
              }
              outbox.record([{ breachId: op.breachId, ...(op.email ? { emails: [op.email] } : {}), ...(op.dataClass ? { dataClasses: [op.dataClass] } : {}), resolved: op.resolved }]);
              for (const email of emails)
                for (const name of classes) {
                  const key = `${op.breachId}|${email}|${dataClassKey(name)}`;
                  touched.add(key);
                  if (op.resolved) model.add(key);
                  else model.delete(key);
                }
            } else if (op.kind === 'flush') {
              server.faults.push(...op.faults);
              clock.now += 3_600_000;
              await outbox.flush();
              server.faults.length = 0;
            } else if (op.kind === 'pull') {
              await puller.pull();
            } else {
              outbox = make();
            }
            expect(localView(db)).toEqual(model);
            // One row per key, holding the last intent.
            for (const row of pendingRows(db)) expect(model.has(`${row.breachId}|${row.email}|${row.classKey}`)).toBe(row.resolved);
            expect(pendingRows(db).every((row) => touched.has(`${row.breachId}|${row.email}|${row.classKey}`))).toBe(true);
          }

          clock.now += 3_600_000;
          expect(await outbox.flush()).toMatchObject({ status: 'done', failed: 0 });
          expect(server.resolvedKeys()).toEqual(model);
          await puller.pull();
          expect(localView(db)).toEqual(model);
          expect(outbox.summary()).toEqual({ pending: 0, sending: 0, failed: 0 });
        } finally {
          server.close();
        }
      }),
      { seed: 424242, numRuns: 150 },
    );
  });
});
