import { describe, expect, it } from 'vitest';
import type { BreachDataSource } from '../../../shared/api/index.ts';
import { accountCreditsHibp, creditsHibp } from '../../../electron/core/checks/hibpCredit.ts';
import { recordBreachDataHeaders, recordChecks } from '../../../electron/core/db/breachDataQueries.ts';
import { countBreaches, getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { toBreachDetail, toBreachList } from '../../../electron/core/views/breachViews.ts';
import { overviewOf } from '../../../electron/core/views/overview.ts';
import { FROZEN_NOW, item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';

// Which breaches they are does not matter: a demo service may serve real catalog ids
// (`--demo --catalog <HIBP file>`), a real one may serve any name. What the service said does.
function store(source: BreachDataSource | undefined) {
  const db = memoryDatabase();
  if (source) db.transaction(() => recordBreachDataHeaders(db, { source, pending: 0 }, FROZEN_NOW.toISOString())).immediate();
  snapshot(db, [
    item({ id: 'AmberBank', domain: 'amberbank.example', breachDate: '2021-03-01', dataClasses: ['Passwords'], accounts: { [A]: [] } }),
    item({ id: 'AmberDating', domain: 'amberdating.example', breachDate: '2020-03-01', isSensitive: true, dataClasses: ['Passwords'], accounts: { [A]: [] } }),
    item({ id: 'Adobe', domain: 'adobe.com', breachDate: '2013-10-04', dataClasses: ['Passwords'], accounts: { [A]: [] } }),
  ]);
  return db;
}

function views(db: ReturnType<typeof store>) {
  const page = queryBreaches(db, {});
  const hibp = accountCreditsHibp(db);
  return {
    overview: overviewOf(db).includesHibp,
    list: toBreachList(page.items, page.total, countBreaches(db, {}), new Set(), hibp).includesHibp,
    adobe: toBreachDetail(getLocalBreach(db, 'Adobe')!, false, hibp).includesHibp,
    amber: toBreachDetail(getLocalBreach(db, 'AmberBank')!, false, hibp).includesHibp,
  };
}

describe('which views credit Have I Been Pwned', () => {
  it('the source the service named decides, for every view alike', () => {
    expect(creditsHibp('hibp')).toBe(true);
    expect(creditsHibp('demo')).toBe(false);
    // `none` now: what is still stored came from an earlier, non-demo source (demo exposures are removed on a change).
    expect(creditsHibp('none')).toBe(true);
    // A service that does not say (the base contract) serves Have I Been Pwned's catalog.
    expect(creditsHibp(undefined)).toBe(true);

    expect(views(store('hibp'))).toEqual({ overview: true, list: true, adobe: true, amber: true });
    expect(views(store(undefined))).toEqual({ overview: true, list: true, adobe: true, amber: true });
    // Invented exposures are never credited, whatever the breaches are called.
    expect(views(store('demo'))).toEqual({ overview: false, list: false, adobe: false, amber: false });
  });

  it("demo exposures over Have I Been Pwned's catalog are credited when the checks answer names it", () => {
    expect(creditsHibp('demo', 'Have I Been Pwned')).toBe(true);
    const db = store('demo');
    const checks = (attribution: string | null) => ({
      source: 'demo' as const,
      attribution,
      addresses: [],
      queue: { requestsPerMinute: null, waiting: 0, nextCheckAt: null },
      stealerLogs: { available: false, entries: [] },
      problem: null,
    });
    recordChecks(db, { status: 'served', checks: checks('Have I Been Pwned'), headers: { source: 'demo', pending: 0 } }, FROZEN_NOW.toISOString());
    expect(views(db)).toEqual({ overview: true, list: true, adobe: true, amber: true });
    // The generated demo catalog: the service names nobody.
    recordChecks(db, { status: 'served', checks: checks(null), headers: { source: 'demo', pending: 0 } }, FROZEN_NOW.toISOString());
    expect(views(db)).toEqual({ overview: false, list: false, adobe: false, amber: false });
  });

  it('credits what is shown: an empty list or Overview carries no credit', () => {
    const db = store('hibp');
    const none = queryBreaches(db, { domainContains: 'nowhere' });
    expect(toBreachList(none.items, none.total, countBreaches(db, {}), new Set(), accountCreditsHibp(db)).includesHibp).toBe(false);
    expect(overviewOf(memoryDatabase()).includesHibp).toBe(false);
  });

  it('the Overview counts sensitive breaches only when the person opted in, and always says how many', () => {
    const hidden = overviewOf(store('hibp'));
    expect(hidden).toMatchObject({ breaches: 2, sensitiveBreaches: 1 });
    expect(hidden.sensitiveShown).toBeUndefined();
    const shown = overviewOf(store('hibp'), { showSensitive: true });
    expect(shown).toMatchObject({ breaches: 3, sensitiveBreaches: 1, sensitiveShown: true });
  });
});
