// The lookup queue's store on SQLite and on PostgreSQL: the same rules on both (the queue's order,
// the budget's window, holds that only move later, one request in flight, domain searches,
// stealer logs), so the service's queue behaves the same whichever database it runs on.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { MONITORED_WITHIN_MS, type LookupStore } from '../../../server/hibp/LookupStore.ts';
import { migratePostgresAt } from '../../support/storeOpeners.ts';
import { openPostgresLookupStore } from '../../support/storeOpeners.ts';
import { openSqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { openSqliteLookupStore } from '../../../server/hibp/SqliteLookupStore.ts';
import { serviceStores } from '../../support/postgres.ts';
import { databaseAt, INJECTED_FAILURE } from '../../support/storeDialects.ts';

const T = 1_772_442_000_000;
const WINDOW = 61_000;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe.each(await serviceStores())('the lookup store on $name', (kind) => {
  if (!kind.available) {
    it.skip('PostgreSQL could not start (see the message above)', () => {});
    return;
  }
  const open: LookupStore[] = [];
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  /** A fresh database, migrated, the lookup store on it, and SQL beside it (for triggers). */
  async function freshWithDatabase(): Promise<{ store: LookupStore; database: ReturnType<typeof databaseAt> }> {
    const { databaseUrl } = await kind.serviceOptions();
    let store: LookupStore;
    let database: ReturnType<typeof databaseAt>;
    if (databaseUrl) {
      await migratePostgresAt(databaseUrl);
      store = openPostgresLookupStore({ url: databaseUrl });
      database = databaseAt({ url: databaseUrl });
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), 'lookup-store-'));
      dirs.push(dir);
      openSqliteBreachStore(path.join(dir, 'service.db')).close();
      store = openSqliteLookupStore(path.join(dir, 'service.db'));
      database = databaseAt({ file: path.join(dir, 'service.db') });
    }
    open.push(store);
    return { store, database };
  }

  async function fresh(): Promise<LookupStore> {
    return (await freshWithDatabase()).store;
  }

  it('hands out new addresses first, oldest first, then the longest-unchecked re-checks, each once while leased', async () => {
    const store = await fresh();
    await store.track(['b@x.example', 'a@x.example'], T, []);
    await store.track(['c@x.example'], T + 1, []);
    expect(await store.waiting(T + 1, false)).toBe(3);
    expect(await store.claim(T + 1, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'a@x.example' });
    expect(await store.claim(T + 1, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'b@x.example' });
    await store.accountChecked('a@x.example', T + 2, 1, T + 10);
    await store.accountChecked('b@x.example', T + 3, 0, T + 10);
    expect(await store.claim(T + 4, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'c@x.example' });
    expect(await store.claim(T + 4, T + 100, 'me', false)).toBeUndefined();
    // Due again: b was checked after a, so a goes first; c is leased until T + 100.
    expect(await store.claim(T + 20, T + 200, 'me', false)).toEqual({ kind: 'account', email: 'a@x.example' });
    expect(await store.claim(T + 20, T + 200, 'me', false)).toEqual({ kind: 'account', email: 'b@x.example' });
    expect(await store.claim(T + 20, T + 200, 'me', false)).toBeUndefined();
    expect(await store.aheadOf('c@x.example', T + 100)).toBe(0);

    const rows = await store.checks(['a@x.example', 'b@x.example', 'c@x.example', 'unknown@x.example']);
    expect(rows.get('a@x.example')).toMatchObject({ checkedAt: T + 2, breachCount: 1, viaDomain: false, problem: null });
    expect(rows.get('c@x.example')).toMatchObject({ checkedAt: null, breachCount: null });
    expect(rows.has('unknown@x.example')).toBe(false);
  });

  it('hands out a never-checked address before a re-check due at the same time (issue 35, finding 9)', async () => {
    const store = await fresh();
    await store.track(['old@x.example'], T, []);
    expect(await store.claim(T, T + 5, 'me', false)).toEqual({ kind: 'account', email: 'old@x.example' });
    await store.accountChecked('old@x.example', T + 1, 0, T + 10);
    // Both due at T + 20: the re-check since T + 10, the new address since it was added.
    await store.track(['new@x.example'], T + 20, []);
    expect(await store.waiting(T + 20, false)).toBe(2);
    expect(await store.claim(T + 20, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'new@x.example' });
    expect(await store.claim(T + 20, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'old@x.example' });
    expect(await store.aheadOf('new@x.example', T + 20)).toBe(0);
  });

  it('stops re-checking an address nobody has asked about for 30 days, until someone does', async () => {
    const store = await fresh();
    await store.track(['a@x.example'], T, []);
    await store.claim(T, T + 100, 'me', false);
    await store.accountChecked('a@x.example', T + 1, 0, T + 1000);
    const later = T + MONITORED_WITHIN_MS + 1;
    expect(await store.nextDue(later, false)).toBeNull();
    expect(await store.waiting(later, false)).toBe(0);
    expect(await store.claim(later, later + 100, 'me', false)).toBeUndefined();
    await store.seen(['a@x.example'], later);
    expect((await store.checks(['a@x.example'])).get('a@x.example')!.seenAt).toBe(later);
    expect(await store.nextDue(later, false)).toBe(T + 1000);
    expect(await store.claim(later, later + 100, 'me', false)).toEqual({ kind: 'account', email: 'a@x.example' });
  });

  it('counts the queue ahead of an address the way it hands it out', async () => {
    const store = await fresh();
    await store.track(['a@x.example', 'b@x.example', 'c@x.example'], T, []);
    expect(await store.aheadOf('a@x.example', T)).toBe(0);
    expect(await store.aheadOf('c@x.example', T)).toBe(2);
    expect(await store.nextDue(T, false)).toBe(T);
  });

  it('counts the queue ahead of an address up to a limit, new addresses and re-checks together', async () => {
    const store = await fresh();
    await store.track(['a@x.example', 'b@x.example', 'c@x.example', 'd@x.example'], T, []);
    expect(await store.aheadOf('d@x.example', T, 2)).toBe(2);
    expect(await store.aheadOf('d@x.example', T, 5)).toBe(3);
    // A re-check comes after every new address and the re-checks checked before it.
    for (const email of ['a@x.example', 'b@x.example']) {
      expect(await store.claim(T, T + 100, 'me', false)).toEqual({ kind: 'account', email });
      await store.accountChecked(email, T + (email === 'a@x.example' ? 1 : 2), 0, T + 10);
    }
    expect(await store.aheadOf('b@x.example', T + 10)).toBe(3);
    expect(await store.aheadOf('b@x.example', T + 10, 1)).toBe(1);
    expect(await store.aheadOf('b@x.example', T + 10, 3)).toBe(3);
  });

  it('grants at most rpm places in any window, and says when the next one frees', async () => {
    const store = await fresh();
    const take = async (at: number) => {
      const slot = await store.takeSlot(at, 2, WINDOW, 10_000);
      if (slot.granted) await store.landed(slot.flight);
      return slot;
    };
    expect(await take(T)).toMatchObject({ granted: true });
    expect(await take(T + 1000)).toMatchObject({ granted: true });
    expect(await take(T + 2000)).toEqual({ granted: false, retryAt: T + WINDOW });
    expect(await take(T + WINDOW)).toMatchObject({ granted: true });
    expect(await store.sentSince(T - 1)).toEqual([T, T + 1000, T + WINDOW]);
  });

  it('grants nothing while a request is in flight, or while a hold is on; holds only move later', async () => {
    const store = await fresh();
    const first = await store.takeSlot(T, 100, WINDOW, 10_000);
    expect(first.granted).toBe(true);
    const waiting = await store.takeSlot(T + 10, 100, WINDOW, 10_000);
    expect(waiting.granted).toBe(false);
    expect((waiting as { retryAt: number }).retryAt).toBeLessThanOrEqual(T + 10_000);
    await store.landed((first as { flight: string }).flight);
    await store.updateState({ blockedUntil: T + 30_000 });
    await store.updateState({ blockedUntil: T + 5_000 });
    expect((await store.state()).blockedUntil).toBe(T + 30_000);
    expect(await store.takeSlot(T + 20, 100, WINDOW, 10_000)).toEqual({ granted: false, retryAt: T + 30_000 });
    const after = await store.takeSlot(T + 30_000, 100, WINDOW, 10_000);
    expect(after.granted).toBe(true);
    // A flight never landed (a crashed instance) stops blocking once its time is up.
    expect((await store.takeSlot(T + 40_001, 100, WINDOW, 10_000)).granted).toBe(true);
  });

  it('brings a hold later than the bound back to it, in one step, leaving shorter holds and the rest alone', async () => {
    const store = await fresh();
    await store.updateState({ rpm: 50, blockedUntil: T + 999_999_999_000, backoffUntil: T + 5_000, problem: { code: 'rate-limited', detail: 'wait' } });
    const before = await store.clampHolds(T + 86_400_000);
    expect(before).toMatchObject({ blockedUntil: T + 999_999_999_000, backoffUntil: T + 5_000 });
    expect(await store.state()).toMatchObject({ rpm: 50, blockedUntil: T + 86_400_000, backoffUntil: T + 5_000, problem: { code: 'rate-limited', detail: 'wait' } });
    expect(await store.takeSlot(T + 86_400_000, 100, WINDOW, 10_000)).toMatchObject({ granted: true });
  });

  it('keeps the problem and Rpm every instance reads; a reset clears the back-off', async () => {
    const store = await fresh();
    await store.updateState({ rpm: 50, stealerLogs: true, problem: { code: 'source-unreachable', detail: 'down' }, failures: 2, backoffUntil: T + 10_000 });
    expect(await store.state()).toMatchObject({ rpm: 50, stealerLogs: true, problem: { code: 'source-unreachable', detail: 'down' }, failures: 2, backoffUntil: T + 10_000 });
    await store.updateState({ failures: 0, backoffUntil: 0, problem: null }, { reset: true });
    expect(await store.state()).toMatchObject({ rpm: 50, failures: 0, backoffUntil: 0, problem: null });
  });

  it('searches a domain for all its addresses, and a new address makes the domain due again', async () => {
    const store = await fresh();
    await store.setSearchedDomains(['acme.example'], T);
    expect(await store.nextDue(T, false)).toBeNull();
    await store.track(['ceo@acme.example', 'a@x.example'], T, ['acme.example']);
    expect(await store.claim(T, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'a@x.example' });
    expect(await store.claim(T, T + 100, 'me', false)).toEqual({ kind: 'domain', domain: 'acme.example' });
    expect(await store.emailsOnDomain('acme.example')).toEqual(['ceo@acme.example']);
    await store.domainChecked('acme.example', T + 1, T + 1000, new Map([['ceo@acme.example', 3]]));
    expect((await store.checks(['ceo@acme.example'])).get('ceo@acme.example')).toMatchObject({ checkedAt: T + 1, breachCount: 3, viaDomain: true, dueAt: T + 1000 });
    await store.track(['intern@acme.example'], T + 2, ['acme.example']);
    expect(await store.claim(T + 2, T + 100, 'me', false)).toEqual({ kind: 'domain', domain: 'acme.example' });
    await store.failed({ kind: 'domain', domain: 'acme.example' }, 'HIBP could not answer', T + 500);
    expect((await store.checks(['intern@acme.example'])).get('intern@acme.example')).toMatchObject({ problem: 'HIBP could not answer', dueAt: T + 500 });
    // The domain no longer searched: its addresses go back to one-by-one lookups.
    await store.setSearchedDomains([], T + 3);
    expect((await store.checks(['ceo@acme.example'])).get('ceo@acme.example')).toMatchObject({ viaDomain: false, dueAt: T + 3 });
  });

  it('takes back a domain result or a change of searched domains that fails part-way in the database', async () => {
    const { store, database } = await freshWithDatabase();
    const emails = ['ceo@acme.example', 'poison@acme.example'];
    await store.setSearchedDomains(['acme.example'], T);
    await store.track(emails, T, ['acme.example']);
    expect(await store.claim(T, T + 100, 'me', false)).toEqual({ kind: 'domain', domain: 'acme.example' });
    const state = async () => ({ checks: [...(await store.checks(emails))], due: await store.nextDue(T + 200, false) });
    // Triggers (test/support/storeDialects.ts) fail the last statements, after the earlier ones ran.
    await database.failWhen('address_checks', "NEW.email = 'poison@acme.example' AND NEW.breach_count IS NOT NULL");
    await database.failWhen('searched_domains', "NEW.domain = 'poison.example'");
    const before = await state();
    await expect(store.domainChecked('acme.example', T + 1, T + 1000, new Map(emails.map((email) => [email, 2])))).rejects.toThrow(INJECTED_FAILURE);
    await expect(store.setSearchedDomains(['other.example', 'poison.example'], T + 2)).rejects.toThrow(INJECTED_FAILURE);
    expect(await state()).toEqual(before);
    expect(before.checks.map(([email, row]) => [email, row.checkedAt, row.breachCount, row.viaDomain])).toEqual(emails.map((email) => [email, null, null, true]));
    // Still the domain's turn once its lease runs out: neither write moved it or took it off the list.
    expect(await store.claim(T + 200, T + 300, 'me', false)).toEqual({ kind: 'domain', domain: 'acme.example' });
  });

  it('looks stealer logs up after the account, and makes addresses checked before a new breach due', async () => {
    const store = await fresh();
    await store.track(['a@x.example'], T, []);
    expect(await store.claim(T, T + 100, 'me', true)).toEqual({ kind: 'account', email: 'a@x.example' });
    await store.accountChecked('a@x.example', T + 1, 2, T + 1_000_000);
    expect(await store.claim(T + 1, T + 100, 'me', false)).toBeUndefined();
    expect(await store.claim(T + 1, T + 100, 'me', true)).toEqual({ kind: 'stealer', email: 'a@x.example' });
    await store.stealerChecked('a@x.example', T + 2, ['netflix.com'], T + 1_000_000);
    expect((await store.checks(['a@x.example'])).get('a@x.example')).toMatchObject({ stealerCheckedAt: T + 2, stealerDomains: ['netflix.com'] });
    expect(await store.dueAgainIfCheckedBefore(T, T + 3)).toBe(0);
    expect(await store.dueAgainIfCheckedBefore(T + 5, T + 6)).toBe(1);
    expect(await store.claim(T + 6, T + 100, 'me', false)).toEqual({ kind: 'account', email: 'a@x.example' });
  });
});
