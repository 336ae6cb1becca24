// The person's state of each local breach as the Search page's questions read it ("breaches I
// haven't fixed", "partly fixed", "new breaches", "breaches for alex@…"), from the real local
// store after real snapshots: resolutions per address and the "New" marks of the last sync.
import { describe, expect, it } from 'vitest';
import { EmbeddedSearch } from '../../../electron/core/search/EmbeddedSearch.ts';
import { accountStates, localSearchSource } from '../../../electron/core/search/localDocuments.ts';
import { setSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { item, memoryDatabase, snapshot } from '../helpers/fixtures.ts';

const A = 'alex@example.com';
const B = 'sam@example.org';

function store() {
  const db = memoryDatabase();
  snapshot(db, [
    item({ id: 'Fixed', accounts: { [A]: ['Email addresses', 'Passwords'] } }),
    item({ id: 'Partly', accounts: { [A]: ['Passwords'], [B]: [] } }),
    item({ id: 'Open', accounts: { [B]: [] } }),
    item({ id: 'BothFixed', accounts: { [A]: ['Email addresses', 'Passwords'], [B]: ['Email addresses', 'Passwords'] } }),
  ]);
  setSyncState(db, 'newBreachIds', JSON.stringify(['Open']));
  return db;
}

describe('accountStates', () => {
  it('says fixed, partly fixed or not fixed from every address, the addresses, and the new marks', () => {
    const states = accountStates(store());
    expect(Object.fromEntries([...states].map(([id, state]) => [id, state]))).toEqual({
      Fixed: { emails: [A], resolution: 'fixed', isNew: false },
      Partly: { emails: [A, B], resolution: 'partly', isNew: false },
      Open: { emails: [B], resolution: 'unfixed', isNew: true },
      BothFixed: { emails: [A, B], resolution: 'fixed', isNew: false },
    });
  });

  it.each([
    ["breaches I haven't fixed", ['Open', 'Partly']],
    ['fixed breaches', ['BothFixed', 'Fixed']],
    ['partly fixed breaches', ['Partly']],
    ['new breaches', ['Open']],
    [`breaches for ${B}`, ['BothFixed', 'Open', 'Partly']],
    [`how many breaches for ${A} have I not fixed?`, ['Partly']],
  ])('the embedded engine answers %j from the store', async (question, expected) => {
    const engine = new EmbeddedSearch(localSearchSource(store()));
    const outcome = await engine.run({ query: question, answer: false, maxResults: 50 });
    engine.close();
    expect(outcome.chunks.map((chunk) => chunk.item.key.replace('breaches/', '')).sort()).toEqual(expected);
  });
});
