import { describe, expect, it } from 'vitest';
import { getLocalBreach } from '../../../electron/core/queries/localQueries.ts';
import { toBreachDetail, toBreachList } from '../../../electron/core/views/breachViews.ts';
import { overviewOf } from '../../../electron/core/views/overview.ts';
import { countBreaches, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'a@example.com';

// AmberBank/amberbank.org is the generated demo catalog's; Adobe/adobe.com is Have I Been Pwned's.
function store(withHibp: boolean) {
  const db = memoryDatabase();
  snapshot(db, [
    item({ id: 'AmberBank', domain: 'amberbank.org', breachDate: '2021-03-01', dataClasses: ['Passwords'], accounts: { [A]: [] } }),
    item({ id: 'AmberDating', domain: 'amberdating.io', breachDate: '2020-03-01', isSensitive: true, dataClasses: ['Passwords'], accounts: { [A]: [] } }),
    ...(withHibp ? [item({ id: 'Adobe', domain: 'adobe.com', breachDate: '2013-10-04', dataClasses: ['Passwords'], accounts: { [A]: [] } })] : []),
  ]);
  return db;
}

describe('which views credit Have I Been Pwned', () => {
  it('the demo catalog alone is never credited; one catalog breach is', () => {
    const demo = store(false);
    expect(overviewOf(demo).includesHibp).toBe(false);
    const page = queryBreaches(demo, {});
    expect(toBreachList(page.items, page.total, countBreaches(demo, {}), new Set()).includesHibp).toBe(false);
    expect(toBreachDetail(getLocalBreach(demo, 'AmberBank')!, false).includesHibp).toBe(false);

    const mixed = store(true);
    expect(overviewOf(mixed).includesHibp).toBe(true);
    expect(toBreachDetail(getLocalBreach(mixed, 'Adobe')!, false).includesHibp).toBe(true);
    expect(toBreachDetail(getLocalBreach(mixed, 'AmberBank')!, false).includesHibp).toBe(false);
    // The list credits what it shows: filtered to the demo's breaches, no credit.
    const demoOnly = queryBreaches(mixed, { domainContains: 'amber' });
    expect(toBreachList(demoOnly.items, demoOnly.total, countBreaches(mixed, {}), new Set()).includesHibp).toBe(false);
  });

  it('the Overview counts sensitive breaches only when the person opted in, and always says how many', () => {
    const hidden = overviewOf(store(true));
    expect(hidden).toMatchObject({ breaches: 2, sensitiveBreaches: 1 });
    expect(hidden.sensitiveShown).toBeUndefined();
    const shown = overviewOf(store(true), { showSensitive: true });
    expect(shown).toMatchObject({ breaches: 3, sensitiveBreaches: 1, sensitiveShown: true });
  });
});
