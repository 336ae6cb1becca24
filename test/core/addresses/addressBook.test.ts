// The person's addresses from the core's side, against the real reference service over loopback
// (its `/user/emails`, CONTRACT "A person's addresses"; `--dev`, so the person is its operator and
// an added address is verified at once): listing, adding, refusals in words (a malformed address,
// one already listed, the service out of reach), and removal, which takes the address off the
// service and its exposures and resolutions off this computer in one transaction, leaving
// breaches it shared with another address to that one.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CoreError } from '../../../shared/ipc/index.ts';
import { AddressBook } from '../../../electron/core/addresses/AddressBook.ts';
import { BreachAlertClient } from '../../../electron/core/api/BreachAlertClient.ts';
import { forgetAddress, readAddresses, removalOf } from '../../../electron/core/db/addressQueries.ts';
import { readChecksView } from '../../../electron/core/db/breachDataQueries.ts';
import { queryBreaches } from '../../../electron/core/queries/localQueries.ts';
import { getSyncState } from '../../../electron/core/db/syncStateQueries.ts';
import { openAccountSync, type AccountSync } from '../../../electron/core/sync/openAccountSync.ts';
import { DevTokenSource } from '../helpers/devTokens.ts';
import { startDevService, type DevService } from '../helpers/devService.ts';
import type { AddressesView } from '../../../shared/ipc/addresses.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { TestSmtpServer } from '../../support/smtpServer.ts';
import { tokenFor } from '../../support/personEmails.ts';
import { openAccountDatabase } from '../../../electron/core/db/openAccountDatabase.ts';
import { tempDir } from '../auth/harness.ts';
import { rmSync } from 'node:fs';
import { CHANNEL_NAMES } from '../../../shared/ipc/contract.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { createAddressHandlers } from '../../../electron/core/handlers/addressHandlers.ts';

const MAIN = 'dana@example.com';
const SIDE = 'dana.side@example.com';

let service: DevService;
const open: AccountSync[] = [];

beforeAll(async () => {
  service = await startDevService();
  await service.addBreach({ id: 'SharedLeak', dataClasses: ['Email addresses', 'Passwords'] });
  await service.addBreach({ id: 'SideOnly', dataClasses: ['Email addresses', 'Usernames'] });
  await service.addBreach({ id: 'MainOnly', dataClasses: ['Email addresses'] });
}, 60_000);

afterAll(async () => {
  await service?.close();
});

afterEach(async () => {
  for (const sync of open.splice(0)) await sync.close();
});

/** One person's account database, synced with the service; the book over it; the events it sent. */
function personWith(sub: string, apiBaseUrl = service.apiBaseUrl) {
  const tokens = new DevTokenSource(service.origin, sub);
  const sync = openAccountSync({ file: ':memory:', apiBaseUrl: service.apiBaseUrl, tokens, pushDelayMs: -1 });
  open.push(sync);
  const events: AddressesView[] = [];
  let forgotten = 0;
  const book = new AddressBook({
    open: () => ({ db: sync.database.db, client: new BreachAlertClient({ baseUrl: apiBaseUrl, tokens, timeoutMs: 2_000 }) }),
    emit: (view) => events.push(view),
    onForgotten: () => (forgotten += 1),
    syncSoon: () => void sync.scheduler.syncNow('manual'),
  });
  return { sync, book, events, tokens, forgottenCount: () => forgotten };
}

describe('forgetting an address on this computer', () => {
  it('takes its accounts, its resolutions and the breaches naming only it, in one transaction; shared breaches stay for the other address', async () => {
    await service.createUser('dana', { [MAIN]: ['SharedLeak', 'MainOnly'], [SIDE]: ['SharedLeak', 'SideOnly'] });
    const { sync } = personWith('dana');
    expect((await sync.scheduler.syncNow()).status).toBe('ok');
    const db = sync.database.db;
    // Something dealt with for the side address: one confirmed by the service, one still waiting here.
    const bearer = await service.token('dana');
    expect(await service.resolve(bearer, [{ breachId: 'SideOnly', dataClasses: ['Usernames'], resolved: true, emails: [SIDE] }])).toBeLessThan(300);
    expect((await sync.scheduler.syncNow()).status).toBe('ok');
    sync.outbox.record([{ breachId: 'SharedLeak', emails: [SIDE], dataClasses: ['Passwords'], resolved: true }]);

    expect(removalOf(db, SIDE)).toEqual({ email: SIDE, breaches: 2, onlyThisAddress: 1, resolutions: 2 });
    const removal = forgetAddress(db, SIDE, '2026-12-06T03:00:00Z');
    expect(removal.breaches).toBe(2);

    expect(db.prepare('SELECT count(*) FROM breached_accounts WHERE email = ?').pluck().get(SIDE)).toBe(0);
    expect(db.prepare('SELECT count(*) FROM outbox WHERE email = ?').pluck().get(SIDE)).toBe(0);
    const left = queryBreaches(db, { limit: 100 });
    expect(left.items.map((row) => row.breach.id).sort()).toEqual(['MainOnly', 'SharedLeak']);
    expect(left.items.find((row) => row.breach.id === 'SharedLeak')!.breachedAccounts.map((account) => account.email)).toEqual([MAIN]);
    expect(db.prepare('SELECT count(*) FROM gone_breaches WHERE id = ?').pluck().get('SideOnly')).toBe(1);
    // The next pull is whole: what the service lists now replaces what was here.
    expect(getSyncState(db, 'etag')).toBeUndefined();
    expect(removalOf(db, SIDE)).toEqual({ email: SIDE, breaches: 0, onlyThisAddress: 0, resolutions: 0 });
  });

  it('rolls back entirely when a step fails: nothing of the address is half gone', async () => {
    await service.createUser('erin', { 'erin@example.com': ['MainOnly'], 'erin.two@example.com': ['SideOnly'] });
    const { sync } = personWith('erin');
    expect((await sync.scheduler.syncNow()).status).toBe('ok');
    const db = sync.database.db;
    const before = db.prepare('SELECT count(*) FROM breached_accounts').pluck().get();
    // A stored checks answer that is not JSON makes the last step throw, after the deletes ran.
    db.prepare("UPDATE breach_data SET listed_json = '{not json' WHERE id = 1").run();
    expect(() => forgetAddress(db, 'erin.two@example.com', '2026-12-06T03:00:00Z')).toThrow();
    expect(db.prepare('SELECT count(*) FROM breached_accounts').pluck().get()).toBe(before);
    expect(
      queryBreaches(db, { limit: 100 })
        .items.map((row) => row.breach.id)
        .sort(),
    ).toEqual(['MainOnly', 'SideOnly']);
  });
});

describe("the service's /user/emails through the core", () => {
  it('the channels refuse what is not an address or a code at the door, naming the field, before anything reaches the service', async () => {
    await service.createUser('kim', { 'kim@example.com': [] });
    const { book } = personWith('kim');
    const others = Object.fromEntries(CHANNEL_NAMES.map((channel) => [channel, () => Promise.reject(new Error(`${channel} is not part of this test`))]));
    const router = new Router(combineHandlers({ ...others, ...createAddressHandlers({ addresses: book }) } as never));
    await expect(router.invoke('addresses-add', { email: 'kim at example' })).rejects.toMatchObject({ code: 'invalid-arguments', issues: [{ path: 'email' }] });
    await expect(router.invoke('addresses-verify', { email: 'kim@example.com', code: '12ab' } as never)).rejects.toMatchObject({ code: 'invalid-arguments', issues: [{ path: 'code' }] });
    await expect(router.invoke('addresses-remove', { email: 'kim@example.com', extra: true } as never)).rejects.toMatchObject({ code: 'invalid-arguments' });
    expect((await router.invoke('addresses-get', { refresh: true })).addresses.map((address) => address.email)).toEqual(['kim@example.com']);
  });

  it('lists, adds (verified at once by the operator’s own service), and keeps the list for offline', async () => {
    await service.createUser('finn', { 'finn@example.com': [] });
    const { sync, book, events } = personWith('finn');
    expect((await sync.scheduler.syncNow()).status).toBe('ok');
    const listed = await book.refresh();
    expect(listed.served).toBe('yes');
    expect(listed.addresses.map((address) => address.email)).toEqual(['finn@example.com']);

    const added = await book.add('Finn.Work@Example.com');
    const work = added.addresses.find((address) => address.email === 'finn.work@example.com');
    expect(work).toMatchObject({ verified: true, removable: true });
    expect(added.verification).toBe('operator');
    expect(events.at(-1)?.addresses.map((address) => address.email)).toContain('finn.work@example.com');
    expect(
      readAddresses(sync.database.db)
        .addresses.map((address) => address.email)
        .sort(),
    ).toEqual(['finn.work@example.com', 'finn@example.com']);
  });

  it('refuses in words: an address already listed, a malformed one (on the field), one the service refuses to remove', async () => {
    await service.createUser('gail', { 'gail@example.com': [] });
    const { book } = personWith('gail');
    await book.refresh();
    await expect(book.add('gail@example.com')).rejects.toMatchObject({ code: 'conflict' });
    const malformed = await book.add('not an address').catch((error: unknown) => error);
    expect(malformed).toBeInstanceOf(CoreError);
    expect((malformed as CoreError).code).toBe('invalid-arguments');
    expect((malformed as CoreError).issues?.[0]?.path).toBe('email');
    // The identity account's own address stays (409), and nothing of it goes here.
    await expect(book.remove('gail@example.com')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('removes at the service and here: neither lists it nor any of its exposures afterwards', async () => {
    await service.createUser('hana', { 'hana@example.com': ['MainOnly'] });
    const { sync, book, forgottenCount } = personWith('hana');
    await book.refresh();
    await book.add('hana.side@example.com');
    await service.putExposures('hana.side@example.com', ['SideOnly', 'SharedLeak']);
    await service.putExposures('hana@example.com', ['MainOnly', 'SharedLeak']);
    expect((await sync.scheduler.syncNow()).status).toBe('ok');
    const db = sync.database.db;
    expect(db.prepare('SELECT count(*) FROM breached_accounts WHERE email = ?').pluck().get('hana.side@example.com')).toBe(2);

    const after = await book.remove('hana.side@example.com');
    expect(after.addresses.map((address) => address.email)).toEqual(['hana@example.com']);
    expect(forgottenCount()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM breached_accounts WHERE email = ?').pluck().get('hana.side@example.com')).toBe(0);
    expect(readChecksView(db).checks?.addresses.some((address) => address.email === 'hana.side@example.com') ?? false).toBe(false);
    const bearer = await service.token('hana');
    const emails = (await (await fetch(`${service.apiBaseUrl}/user/emails`, { headers: { authorization: `Bearer ${bearer}` } })).json()) as { email: string }[];
    expect(emails.map((address) => address.email)).toEqual(['hana@example.com']);
    const breaches = await service.list(bearer);
    expect(breaches.flatMap((row) => row.breachedAccounts.map((account) => account.email))).not.toContain('hana.side@example.com');
  });

  it('offline: adding says it needs the service; the stored list stays, with why it was not refreshed', async () => {
    await service.createUser('ivan', { 'ivan@example.com': [] });
    const online = personWith('ivan');
    await online.book.refresh();
    // The same account's database, with a client of a service that is not there.
    const dead = new AddressBook({
      open: () => ({ db: online.sync.database.db, client: new BreachAlertClient({ baseUrl: 'http://127.0.0.1:9/api/v1', tokens: online.tokens, timeoutMs: 2_000 }) }),
      emit: () => {},
      onForgotten: () => {},
      syncSoon: () => {},
    });
    const refused = await dead.add('ivan.two@example.com').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'unavailable' });
    expect((refused as Error).message).toMatch(/^Adding an address needs the service, which cannot be reached right now/);
    const view = await dead.refresh();
    expect(view.addresses.map((address) => address.email)).toEqual(['ivan@example.com']);
    expect(view.problem).toMatch(/^Your addresses could not be listed again/);
  });
});

describe('a service several people use: the code sent by email', () => {
  let shared: RunningService;
  let smtp: TestSmtpServer;
  const dataDir = tempDir('core-addresses-smtp');

  beforeAll(async () => {
    smtp = await TestSmtpServer.start();
    shared = await startService({ port: 0, dataDir, smtpUrl: smtp.url, logLevel: 'silent' });
  }, 60_000);

  afterAll(async () => {
    await shared?.close();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('an added address waits for its code; a wrong one is refused on the field in the service’s words; sending again and the right code verify it', async () => {
    const token = await tokenFor(shared, 'jo', { email: 'jo@example.com', emailVerified: true });
    const database = openAccountDatabase(':memory:');
    const tokens = { getAccessToken: async () => token, refreshAfterUnauthorized: async () => token };
    const book = new AddressBook({
      open: () => ({ db: database.db, client: new BreachAlertClient({ baseUrl: shared.apiBaseUrl, tokens, timeoutMs: 5_000 }) }),
      emit: () => {},
      onForgotten: () => {},
      syncSoon: () => {},
    });
    try {
      const added = await book.add('jo.side@example.com');
      expect(added.verification).toBe('code');
      expect(added.addresses.find((address) => address.email === 'jo.side@example.com')).toMatchObject({ verified: false, state: 'unverified' });
      const first = smtp.lastCode('jo.side@example.com');
      const wrong = first === '000000' ? '111111' : '000000';
      const refused = (await book.verify('jo.side@example.com', wrong).catch((error: unknown) => error)) as CoreError;
      expect(refused.code).toBe('invalid-arguments');
      expect(refused.issues?.[0]).toEqual({ path: 'code', message: expect.stringMatching(/^That is not the code sent to jo\.side@example\.com: \d tries? left/) });
      await book.resend('jo.side@example.com');
      expect(smtp.to('jo.side@example.com')).toHaveLength(2);
      const verified = await book.verify('jo.side@example.com', smtp.lastCode('jo.side@example.com'));
      expect(verified.addresses.find((address) => address.email === 'jo.side@example.com')).toMatchObject({ verified: true, verifiedBy: 'code' });
      // Verified: no code to send any more, said as the service says it.
      await expect(book.resend('jo.side@example.com')).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/^Jo\.side@example\.com is verified already/) });
    } finally {
      database.close();
    }
  });
});
