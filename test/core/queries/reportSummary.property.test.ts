// The overview's summary read from aggregates over the account database answers exactly what
// summarizing the whole report answers, over random account databases written through the real
// paths: snapshots (any spelling of data classes and emails, resolved with and without times,
// sensitive breaches, demo data), the outbox's intents (pending, refused, kept on this computer,
// delivered and confirmed without a time), and a later snapshot over those intents.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolveInput } from '../../../shared/api/index.ts';
import { dataClassKey } from '../../../shared/api/index.ts';
import { FIX_GROUPS } from '../../../shared/report/fixSteps.ts';
import { summarizeReport } from '../../../shared/report/summary.ts';
import type { ServerUserBreach } from '../../../electron/core/api/BreachAlertClient.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { buildReport } from '../../../electron/core/handlers/reportHandlers.ts';
import type { WritableDB } from '../../../electron/core/db/Interface.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { summarizeLocal } from '../../../electron/core/queries/reportSummary.ts';
import { applySnapshot } from '../../../electron/core/sync/applySnapshot.ts';
import { memoryDatabase } from '../helpers/fixtures.ts';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-24T09:00:30Z');

/** Every fix group, several spellings of one class, classes no group names, and names with no key (dropped). */
const CLASSES = [
  ...FIX_GROUPS.flatMap((group) => group.dataClasses.slice(0, 3)),
  'Passwords',
  'passwords',
  'PASSWORDS',
  'Email addresses',
  'email-addresses',
  'Email_Addresses ',
  'Credit cards',
  'credit-cards',
  'Names',
  'IP addresses',
  'Shoe sizes',
  'shoe-sizes',
  'Straße',
  '!!!',
  '  ',
];
const EMAILS = ['a@example.com', 'A@Example.com', 'b@example.com', 'c@example.com'];
const IDS = ['Adobe', 'Bravo', 'Charlie', 'Delta', 'Echo'];

/** A time the service gave: any week around now (older than the twelve shown too), in several ISO spellings. */
const resolvedAt = fc.option(
  fc.tuple(fc.integer({ min: -20 * 7 * DAY, max: 3 * DAY }), fc.constantFrom('Z', 'ms', '+02:00', '-05:30')).map(([offset, form]) => {
    const iso = new Date(NOW + offset).toISOString();
    if (form === 'Z') return iso.replace(/\.\d{3}Z$/, 'Z');
    if (form === 'ms') return iso;
    return iso.replace(/\.\d{3}Z$/, form);
  }),
  { nil: undefined, freq: 3 },
);

/** An account of a breach: resolved names mostly the breach's own, sometimes another (which resolves nothing). */
const account = (names: readonly string[]) =>
  fc.record({
    email: fc.constantFrom(...EMAILS),
    resolved: fc.array(
      fc.tuple(names.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 4 }, { arbitrary: fc.constantFrom(...CLASSES), weight: 1 }) : fc.constantFrom(...CLASSES), resolvedAt),
      {
        maxLength: 5,
      },
    ),
  });

const breach = fc
  .record({ id: fc.constantFrom(...IDS), dataClasses: fc.array(fc.constantFrom(...CLASSES), { maxLength: 7 }), isSensitive: fc.boolean() })
  .chain((b) => fc.array(account(b.dataClasses), { maxLength: 4 }).map((accounts) => ({ ...b, accounts })));

function item(spec: { id: string; dataClasses: string[]; isSensitive: boolean; accounts: { email: string; resolved: [string, string | undefined][] }[] }): ServerUserBreach {
  return {
    breach: {
      id: spec.id,
      domain: `${spec.id.toLowerCase()}.example`,
      breachDate: '2020-01-01',
      addedDate: '2020-02-01T10:00:00Z',
      modifiedDate: '2020-02-01T10:00:00Z',
      dataClasses: spec.dataClasses,
      isSensitive: spec.isSensitive,
    },
    breachedAccounts: spec.accounts.map(({ email, resolved }) => ({
      email,
      resolvedDataClasses: Object.fromEntries(resolved.map(([name, at]) => [name, at === undefined ? {} : { resolvedAt: at }])),
    })),
  };
}

const toggle: fc.Arbitrary<ResolveInput> = fc.record(
  {
    breachId: fc.constantFrom(...IDS),
    emails: fc.subarray(EMAILS, { minLength: 1, maxLength: 2 }),
    dataClasses: fc.subarray(
      CLASSES.filter((name) => dataClassKey(name) !== ''),
      { minLength: 1, maxLength: 2 },
    ),
    resolved: fc.boolean(),
  },
  { requiredKeys: ['breachId', 'resolved'] },
);

const scenario = fc.record({
  demo: fc.boolean(),
  first: fc.array(breach, { maxLength: 7 }),
  /** Toggled, then flushed: the service refuses every item of these breaches, takes the rest. */
  flushed: fc.array(toggle, { maxLength: 12 }),
  refusedBreaches: fc.subarray(IDS),
  /** Classes whose intents the service's contract cannot carry: kept on this computer. */
  localKeys: fc.subarray(['passwords', 'names', 'credit-cards']),
  /** Toggled after the flush: still queued. */
  queued: fc.array(toggle, { maxLength: 12 }),
  /** A later pull, over the queued intents. */
  second: fc.option(fc.array(breach, { maxLength: 7 }), { nil: undefined }),
  now: fc.integer({ min: NOW - 10 * DAY, max: NOW + 30 * DAY }),
});

function record(outbox: Outbox, toggles: readonly ResolveInput[]): void {
  for (const input of toggles) {
    try {
      outbox.record([input]);
    } catch {
      // A toggle naming an email or class the breach does not have is refused whole: nothing recorded.
    }
  }
}

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

async function accountDatabase(s: Scenario): Promise<WritableDB> {
  const db = memoryDatabase();
  const breachData = { source: s.demo ? ('demo' as const) : ('hibp' as const), pending: undefined };
  applySnapshot(db, { items: s.first.map(item), etag: '"1"', breachData }, new Date(NOW - 30 * DAY));
  const refused = new Set<string>(s.refusedBreaches);
  const outbox = new Outbox({
    db,
    now: () => NOW - 7 * DAY,
    canSend: ({ classKey }) => !s.localKeys.includes(classKey),
    sender: {
      postResolutions: async (items) => {
        if (items.some((entry) => refused.has(entry.breachId))) throw new ApiError('not-found', 'no such breach', { status: 404 });
      },
    },
  });
  record(outbox, s.flushed);
  await outbox.flush();
  record(outbox, s.queued);
  if (s.second) applySnapshot(db, { items: s.second.map(item), etag: '"2"', breachData }, new Date(NOW - DAY));
  return db;
}

describe('summarizeLocal (report-summary from aggregates)', () => {
  it('answers what summarizeReport answers of the whole report, under both sensitive policies', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const db = await accountDatabase(s);
        for (const showSensitive of [false, true]) {
          const policy = { showSensitive };
          const expected = summarizeReport(buildReport(db, { now: s.now, policy }), s.now);
          expect(summarizeLocal(db, { now: s.now, policy })).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('an empty account: nothing next, twelve empty weeks', () => {
    const db = memoryDatabase();
    const summary = summarizeLocal(db, { now: NOW });
    expect(summary).toEqual(summarizeReport(buildReport(db, { now: NOW }), NOW));
    expect(summary.next).toBeUndefined();
    expect(summary.progress.weeks).toHaveLength(12);
  });
});
