// Mozilla Monitor's own response example (../shared/fixtures/monitor/openapi.yml), taken in as a
// snapshot: breach data classes in slugs, a resolvedDataClasses key in display spelling, no
// resolvedAt. The client reads it, shows display names, counts the resolution, and queues a
// change in the service's spelling.
import { describe, expect, it } from 'vitest';
import { ServerUserBreachList } from '../../../electron/core/api/BreachAlertClient.ts';
import { Outbox } from '../../../electron/core/outbox/Outbox.ts';
import { getLocalBreach, queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { toBreachDetail } from '../../../electron/core/views/breachViews.ts';
import { loadUpstream, UPSTREAM_FILE, UPSTREAM_MISSING_MESSAGE } from '../../conformance/upstream.ts';
import { memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const upstream = loadUpstream();
if (!upstream) console.warn(UPSTREAM_MISSING_MESSAGE);

const neverSends = { postResolutions: () => Promise.reject(new Error('not in this test')) };

describe.skipIf(!upstream)(`the upstream response example (${UPSTREAM_FILE}) in the client`, () => {
  it('is shown by display name, its resolution counts, and changes go back in slugs', () => {
    const example = upstream!.responseExamples('GET', '/user/breaches', 200).find((e) => e.name === 'hasBreaches')!.value;
    const items = ServerUserBreachList.parse(example);
    expect(items[0]!.breach.dataClasses).toEqual(['email-addresses', 'passwords']);
    expect(Object.keys(items[0]!.breachedAccounts[0]!.resolvedDataClasses)).toEqual(['Passwords']);

    const db = memoryDatabase();
    snapshot(db, items);
    const detail = toBreachDetail(getLocalBreach(db, 'Breach1')!, false, true);
    expect(detail.breach.dataClasses).toEqual(['Email addresses', 'Passwords']);
    expect(detail.accounts).toEqual([{ email: 'alice@example.com', cells: { 'Email addresses': { resolved: false, pending: false }, Passwords: { resolved: true, pending: false } } }]);
    expect(queryBreaches(db, { unresolvedDataClasses: ['Passwords'] }).total).toBe(0);
    expect(queryBreaches(db, { unresolvedDataClasses: ['Email addresses'] }).total).toBe(1);

    const outbox = new Outbox({ db, sender: neverSends });
    outbox.record([{ breachId: 'Breach1', dataClasses: ['Email addresses'], resolved: true }]);
    expect(outbox.items('pending').map((i) => [i.breachId, i.email, i.dataClass, i.resolved])).toEqual([['Breach1', 'alice@example.com', 'email-addresses', true]]);
  });
});
