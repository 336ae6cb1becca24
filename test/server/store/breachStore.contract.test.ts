// The breach store's contract (server/breaches/BreachStore.ts), one suite run on SQLite and on
// PostgreSQL alike: the catalog (with the history a replacement keeps: removed breaches, the
// loaded catalog, change records), accounts and users, exposures, resolutions, revisions and
// change stamps, and writes that land whole or not at all. Atomicity is checked where validation
// cannot hide it: a trigger (test/support/storeDialects.ts) makes a write fail part-way, after
// some of its rows are written, and nothing of it may stay; and a catalog replacement races
// resolution batches for a data class it drops. Two stores on one database stand for two
// instances (on SQLite, two connections to one file). SQLite- and PostgreSQL-only cases live in
// SqliteBreachStore.test.ts and PostgresBreachStore.test.ts; the catalog history's own cases
// (invented exposures, migration 40) in catalogHistory.test.ts.
import { describe, expect, it, type TestContext } from 'vitest';
import type { Breach } from '../../../shared/api/index.ts';
import { asyncBreachStore, type BreachStore, type ResolutionChange } from '../../../server/breaches/BreachStore.ts';
import { InvalidBreachError, ResolutionChangeError } from '../../../server/breaches/errors.ts';
import { migratePostgresAt, openPostgresBreachStoreAt } from '../../support/storeOpeners.ts';
import { openSqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { DIALECTS, INJECTED_FAILURE, useStoreDialects, type Dialect, type DialectPlace } from '../../support/storeDialects.ts';
import { breach } from './helpers.ts';

const dialects = useStoreDialects({ preparePostgres: async (url) => void (await migratePostgresAt(url)) });

const T1 = '2026-02-01T10:00:00Z';
const T2 = '2026-02-02T11:30:00Z';
const T3 = '2026-02-03T09:15:00Z';

function change(email: string, breachId: string, dataClass: string, resolved = true): ResolutionChange {
  return { email, breachId, dataClass, resolved };
}

interface Opened {
  store: BreachStore;
  place: DialectPlace;
  /** Another instance on the same database. */
  another(): Promise<BreachStore>;
}

async function open(ctx: TestContext, dialect: Dialect, catalog: readonly Breach[] = []): Promise<Opened> {
  const place = (await dialects.place(dialect)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
  const instance = async (): Promise<BreachStore> => {
    const store = dialect === 'sqlite' ? asyncBreachStore(openSqliteBreachStore(place.file)) : await openPostgresBreachStoreAt({ url: place.url });
    ctx.onTestFinished(() => store.close());
    return store;
  };
  const store = await instance();
  if (catalog.length > 0) await store.replaceCatalog(catalog);
  return { store, place, another: instance };
}

/**
 * Makes the write's last step fail: the revision bookkeeping that follows its rows (SQLite's
 * `meta` counters; PostgreSQL's catalog revision and per-email revisions). Everything the write
 * stores is written by then, so only a transaction can take it back.
 */
async function failAtRevisionBump(place: DialectPlace): Promise<void> {
  await place.failWhen('meta', '1 = 1');
  if (place.dialect === 'postgres') await place.failWhen('email_revisions', '1 = 1');
}

/** Everything a write could leave behind, as the store answers it. */
async function everything(store: BreachStore, emails: readonly string[], subs: readonly string[] = []) {
  return {
    catalog: await store.listBreaches(),
    catalogSize: await store.catalogSize(),
    catalogRevision: await store.catalogRevision(),
    removed: [...(await store.removedBreaches())],
    loadedCatalog: await store.loadedCatalog(),
    catalogChanges: await store.catalogChanges(emails),
    revision: await store.revision(),
    stamp: await store.changeStamp(emails),
    exposures: [...(await store.getExposures(emails))],
    resolutions: await store.getResolutions(emails),
    accounts: await Promise.all(subs.map((sub) => store.getAccount(sub))),
    users: await Promise.all(subs.map((sub) => store.hasUser(sub))),
  };
}

const CATALOG = [breach('Adobe'), breach('LinkedIn', { dataClasses: ['Email addresses', 'Passwords'] })];

describe.each(DIALECTS)('the breach store contract on %s', (dialect) => {
  describe('catalog', () => {
    it('lists breaches ordered by id as bytes (upper case first), gets one, and counts them', async (ctx) => {
      const { store } = await open(ctx, dialect, [breach('b10'), breach('B2'), breach('a1')]);
      await store.putBreach(breach('Canva', { domain: '', isSensitive: true }));
      expect((await store.listBreaches()).map((b) => b.id)).toEqual(['B2', 'Canva', 'a1', 'b10']);
      expect(await store.getBreach('Canva')).toEqual(breach('Canva', { domain: '', isSensitive: true }));
      expect(await store.getBreach('Nope')).toBeUndefined();
      expect(await store.catalogSize()).toBe(4);
    });

    it('replaces one breach with putBreach, and adds several with putBreaches keeping the others', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.putBreach(breach('Adobe', { dataClasses: ['Email addresses', 'Password hints'], modifiedDate: '2020-01-01T00:00:00Z' }));
      expect((await store.getBreach('Adobe'))?.dataClasses).toEqual(['Email addresses', 'Password hints']);
      await store.putBreaches([breach('Canva'), breach('LinkedIn', { domain: 'linkedin.example' })]);
      expect((await store.listBreaches()).map((b) => `${b.id} ${b.domain}`)).toEqual(['Adobe adobe.com', 'Canva canva.com', 'LinkedIn linkedin.example']);
    });

    it('hands out copies the caller may change', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      (await store.listBreaches())[0]!.dataClasses.push('Mutated');
      (await store.getBreach('Adobe'))!.domain = 'evil.example';
      expect(await store.getBreach('Adobe')).toEqual(breach('Adobe'));
    });

    it('refuses invalid breaches and duplicate ids, naming them, and leaves everything as it was', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      const before = await everything(store, []);
      await expect(store.putBreach(breach('Bad', { modifiedDate: '2000-01-01T00:00:00Z' }))).rejects.toThrow(InvalidBreachError);
      await expect(store.replaceCatalog([breach('A'), breach('A')])).rejects.toThrow(/breach "A": appears twice in the catalog \(again at index 1\)/);
      await expect(store.putBreaches([breach('A'), breach('B', { breachDate: 'soon' })])).rejects.toThrow(/catalog index 1\): breachDate/);
      await expect(store.replaceCatalog([breach('A'), breach('B', { dataClasses: [''] })])).rejects.toThrow(/catalog index 1\): dataClasses.0/);
      expect(await everything(store, [])).toEqual(before);
    });

    it('keeps resolutions and exposures when a replacement drops their breach, and the breach with its last known fields', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'LinkedIn', 'Passwords')], T1);
      const last = breach('LinkedIn', { dataClasses: ['Email addresses', 'Passwords', 'Usernames'], modifiedDate: '2020-01-01T00:00:00Z' });
      await store.putBreach(last);
      await store.replaceCatalog([breach('Adobe'), breach('Zynga')], { origin: 'hibp', file: null, at: T3 });
      expect((await store.listBreaches()).map((b) => b.id)).toEqual(['Adobe', 'Zynga']);
      expect(await store.getBreach('LinkedIn')).toBeUndefined();
      expect(await store.removedBreaches()).toEqual(new Map([['LinkedIn', { breach: last, removedAt: T3 }]]));
      expect((await store.getExposures(['a@example.com'])).get('a@example.com')).toEqual(['Adobe', 'LinkedIn']);
      expect((await store.getResolutions(['a@example.com'])).map((r) => r.breachId)).toEqual(['Adobe', 'LinkedIn']);
      expect((await store.catalogChanges(['a@example.com'])).map(({ id: _id, ...record }) => record)).toEqual([
        { at: T3, email: 'a@example.com', from: null, to: 'hibp', removedFromCatalog: ['LinkedIn'], inventedRemoved: [], resolutionsKept: 1, resolutionsRemoved: 0 },
      ]);
    });

    it('a removed breach stays resolvable by its last known data classes, through either instance', async (ctx) => {
      const { store, another } = await open(ctx, dialect, CATALOG);
      const other = await another();
      // Read first, so each instance holds a catalog snapshot the replacement must replace.
      expect(await other.catalogSize()).toBe(2);
      await store.putBreach(breach('LinkedIn', { dataClasses: ['Email addresses', 'Passwords', 'Usernames'], modifiedDate: '2020-01-01T00:00:00Z' }));
      await store.replaceCatalog([breach('Adobe')], { origin: 'hibp', file: null, at: T2 });
      for (const [name, writer] of [
        ['this instance', store],
        ['another instance', other],
      ] as const) {
        const email = `${name.split(' ')[0]}@example.com`;
        // Respelled to the breach's own spelling, as for a breach in the catalog.
        await writer.applyResolutionChanges([change(email, 'LinkedIn', 'usernames'), change(email, 'LinkedIn', 'Passwords')], T3);
        expect(
          (await writer.getResolutions([email])).map((r) => `${r.breachId}/${r.dataClass}/${r.resolvedAt}`),
          name,
        ).toEqual(['LinkedIn/Passwords/' + T3, 'LinkedIn/Usernames/' + T3]);
        await writer.applyResolutionChanges([change(email, 'LinkedIn', 'Passwords', false)], T3);
        expect(
          (await writer.getResolutions([email])).map((r) => r.dataClass),
          name,
        ).toEqual(['Usernames']);
        // A class it never had, and a breach the store never had, are refused as before, whole.
        const before = await everything(writer, [email]);
        await expect(writer.applyResolutionChanges([change(email, 'Adobe', 'Passwords'), change(email, 'LinkedIn', 'IP addresses')], T3), name).rejects.toMatchObject({
          index: 1,
          problem: 'unknown-data-class',
        });
        await expect(writer.applyResolutionChanges([change(email, 'Adobe', 'Passwords'), change(email, 'Never', 'Passwords')], T3), name).rejects.toMatchObject({
          index: 1,
          problem: 'unknown-breach',
        });
        expect(await everything(writer, [email]), name).toEqual(before);
      }
      // Back in the catalog (here with fewer classes), it is resolved by what the catalog says now.
      await other.putBreach(breach('LinkedIn', { dataClasses: ['Email addresses'] }));
      expect(await store.removedBreaches()).toEqual(new Map());
      await expect(store.applyResolutionChanges([change('this@example.com', 'LinkedIn', 'Usernames')], T3)).rejects.toMatchObject({ problem: 'unknown-data-class' });
      expect((await store.getResolutions(['this@example.com'])).map((r) => r.dataClass)).toEqual(['Usernames']);
    });

    it('moves the catalog revision on every catalog write and on nothing else', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      let revision = await store.catalogRevision();
      for (const write of [() => store.putBreach(breach('Canva')), () => store.putBreaches([breach('Dropbox')]), () => store.replaceCatalog(CATALOG)]) {
        await write();
        const next = await store.catalogRevision();
        expect(next).toBeGreaterThan(revision);
        revision = next;
      }
      await store.putAccount({ sub: 's', emails: ['a@example.com'], deleted: false });
      await store.createUser('s');
      await store.setExposures('a@example.com', ['Adobe']);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
      expect(await store.catalogRevision()).toBe(revision);
    });
  });

  describe('accounts and users', () => {
    it('stores accounts with lower-cased, de-duplicated emails, replaced whole', async (ctx) => {
      const { store } = await open(ctx, dialect);
      expect(await store.getAccount('sub-1')).toBeUndefined();
      await store.putAccount({ sub: 'sub-1', emails: ['Alice@Example.com', 'alice@example.com', 'bob@example.com', ' '], deleted: false });
      expect(await store.getAccount('sub-1')).toEqual({ sub: 'sub-1', emails: ['alice@example.com', 'bob@example.com'], deleted: false });
      await store.putAccount({ sub: 'sub-1', emails: [], deleted: true });
      expect(await store.getAccount('sub-1')).toEqual({ sub: 'sub-1', emails: [], deleted: true });
      await expect(store.putAccount({ sub: '', emails: [], deleted: false })).rejects.toThrow(RangeError);
    });

    it('creates a user once, and refuses an empty sub', async (ctx) => {
      const { store } = await open(ctx, dialect);
      expect(await store.hasUser('sub-1')).toBe(false);
      expect(await store.createUser('sub-1')).toBe(true);
      expect(await store.createUser('sub-1')).toBe(false);
      expect(await store.hasUser('sub-1')).toBe(true);
      expect(await store.hasUser('sub-2')).toBe(false);
      await expect(store.createUser('')).rejects.toThrow(RangeError);
    });
  });

  describe('exposures', () => {
    it('round-trip per email, keyed in lower case, ordered by id; an email found in nothing differs from one never looked up', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.setExposures('Alice@Example.com', ['b10', 'LinkedIn', 'B2', 'Adobe', 'Adobe']);
      await store.setExposures('nobody@example.com', []);
      expect([...(await store.getExposures(['ALICE@example.com', 'nobody@example.com', 'unknown@example.com']))]).toEqual([
        ['alice@example.com', ['Adobe', 'B2', 'LinkedIn', 'b10']],
        ['nobody@example.com', []],
      ]);
      expect((await store.getExposures([])).size).toBe(0);
      await expect(store.setExposures(' ', ['Adobe'])).rejects.toThrow(RangeError);
    });

    it('replace the previous set', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
      await store.setExposures('a@example.com', ['LinkedIn']);
      expect((await store.getExposures(['a@example.com'])).get('a@example.com')).toEqual(['LinkedIn']);
      await store.setExposures('a@example.com', []);
      expect((await store.getExposures(['a@example.com'])).get('a@example.com')).toEqual([]);
    });
  });

  describe('resolutions', () => {
    it("store the breach's spelling of the data class and a lower-case email", async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.applyResolutionChanges([change('A@Example.com', 'Adobe', 'ip ADDRESSES')], T1);
      expect(await store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'IP addresses', resolvedAt: T1 }]);
    });

    it('keep resolvedAt when resolved again in any case; a batch that unresolves then resolves starts anew', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
      await store.applyResolutionChanges([change('A@EXAMPLE.COM', 'Adobe', 'passwords')], T2);
      expect(await store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: T1 }]);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false), change('a@example.com', 'Adobe', 'Passwords')], T3);
      expect(await store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: T3 }]);
      // Per key the last change of a batch wins.
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'Adobe', 'passwords', false)], T3);
      expect(await store.getResolutions(['a@example.com'])).toEqual([]);
    });

    it('are deleted on unresolve, idempotently', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'Adobe', 'IP addresses')], T1);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'PASSWORDS', false)], T2);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false)], T2);
      expect((await store.getResolutions(['a@example.com'])).map((r) => r.dataClass)).toEqual(['IP addresses']);
    });

    it('answer only the asked emails, ordered by email, breach and data class', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.applyResolutionChanges(
        [
          change('b@example.com', 'LinkedIn', 'Passwords'),
          change('a@example.com', 'LinkedIn', 'Email addresses'),
          change('a@example.com', 'Adobe', 'Passwords'),
          change('a@example.com', 'Adobe', 'Email addresses'),
          change('c@example.com', 'Adobe', 'Passwords'),
        ],
        T1,
      );
      expect((await store.getResolutions(['b@example.com', 'A@example.com'])).map((r) => `${r.email} ${r.breachId} ${r.dataClass}`)).toEqual([
        'a@example.com Adobe Email addresses',
        'a@example.com Adobe Passwords',
        'a@example.com LinkedIn Email addresses',
        'b@example.com LinkedIn Passwords',
      ]);
      expect(await store.getResolutions([])).toEqual([]);
    });

    const refused: [string, ResolutionChange, ResolutionChangeError['problem'], RegExp][] = [
      ['an unknown breach', change('a@example.com', 'NoSuchBreach', 'Passwords'), 'unknown-breach', /change 2: the catalog has no breach "NoSuchBreach"; nothing was applied/],
      ['a data class the breach lacks', change('a@example.com', 'LinkedIn', 'Usernames'), 'unknown-data-class', /change 2: breach "LinkedIn" has no data class "Usernames"/],
      ['an empty email', change('  ', 'Adobe', 'Passwords'), 'invalid-email', /change 2: the email is empty/],
    ];
    it.for(refused)('refuse a batch with %s whole, saying which change and why', async ([, bad, problem, message], ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
      const before = await everything(store, ['a@example.com', 'b@example.com']);
      const batch = [change('b@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'Adobe', 'Passwords', false), bad];
      const error = await store.applyResolutionChanges(batch, T2).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ResolutionChangeError);
      expect(error).toMatchObject({ index: 2, problem, change: bad });
      expect((error as Error).message).toMatch(message);
      expect(await everything(store, ['a@example.com', 'b@example.com'])).toEqual(before);
    });

    it('report the first bad change of a batch', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      const error = await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Names'), change('a@example.com', 'Nope', 'Names')], T2).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ResolutionChangeError);
      expect(error).toMatchObject({ index: 0, problem: 'unknown-data-class' });
    });

    it('refuse a timestamp that is not a date-time', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      await expect(store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], 'now')).rejects.toThrow(RangeError);
      expect(await store.getResolutions(['a@example.com'])).toEqual([]);
    });
  });

  describe('revision and change stamps', () => {
    it('the revision rises on every write that changes something, and stays put when nothing does', async (ctx) => {
      const { store } = await open(ctx, dialect, CATALOG);
      let revision = await store.revision();
      const writes: [string, () => Promise<unknown>][] = [
        ['putBreach', () => store.putBreach(breach('Canva'))],
        ['putBreaches', () => store.putBreaches([breach('Dropbox')])],
        ['replaceCatalog', () => store.replaceCatalog(CATALOG)],
        ['putAccount', () => store.putAccount({ sub: 's', emails: ['a@example.com'], deleted: false })],
        ['createUser', () => store.createUser('s')],
        ['setExposures', () => store.setExposures('a@example.com', ['Adobe'])],
        ['resolve', () => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1)],
        ['unresolve', () => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false)], T1)],
      ];
      for (const [name, write] of writes) {
        await write();
        const next = await store.revision();
        expect(next, name).toBeGreaterThan(revision);
        revision = next;
      }
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
      revision = await store.revision();
      await store.createUser('s');
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T2);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'IP addresses', false)], T2);
      await store.applyResolutionChanges([], T2);
      expect(await store.revision()).toBe(revision);
    });

    it("an email's stamp moves with its own writes and the catalog's, through either instance, and not with other emails' through its own", async (ctx) => {
      const { store: reader, another } = await open(ctx, dialect, CATALOG);
      const writer = await another();
      const before = await reader.changeStamp(['a@example.com']);
      await reader.setExposures('b@example.com', ['LinkedIn']);
      await reader.createUser('someone');
      await reader.putAccount({ sub: 'someone', emails: ['b@example.com'], deleted: false });
      await reader.applyResolutionChanges([change('b@example.com', 'LinkedIn', 'Passwords')], T1);
      expect(await reader.changeStamp(['a@example.com'])).toBe(before);
      // Another instance's writes about other emails may move it (SQLite forgets every stamp when
      // another connection commits); its writes about this email and the catalog must.
      const writes: [string, () => Promise<unknown>][] = [
        ['exposures here', () => reader.setExposures('A@example.com', ['Adobe'])],
        ['exposures there', () => writer.setExposures('a@example.com', ['Adobe', 'LinkedIn'])],
        ['resolution here', () => reader.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1)],
        ['resolution there', () => writer.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false)], T1)],
        ['catalog here', () => reader.putBreach(breach('Canva'))],
        ['catalog there', () => writer.putBreach(breach('Dropbox'))],
      ];
      let stamp = await reader.changeStamp(['a@example.com']);
      for (const [name, write] of writes) {
        await write();
        const next = await reader.changeStamp(['a@example.com']);
        expect(next, name).not.toBe(stamp);
        stamp = next;
      }
      expect((await reader.listBreaches()).map((b) => b.id)).toEqual(['Adobe', 'Canva', 'Dropbox', 'LinkedIn']);
    });

    it('readAccount answers the account with the change stamps of its emails, or of the fallback emails without one', async (ctx) => {
      const { store, another } = await open(ctx, dialect, CATALOG);
      await store.setExposures('b@example.com', ['Adobe']);
      const unknown = await store.readAccount('nobody', ['a@example.com', 'b@example.com']);
      expect(unknown.account).toBeUndefined();
      expect(unknown.changeStamp(['b@example.com', 'A@example.com'])).toBe(await store.changeStamp(['b@example.com', 'a@example.com']));
      expect(unknown.changeStamp([])).toBe(await store.changeStamp([]));
      // Only what the read covered: a stamp for anything else would be made up.
      expect(() => unknown.changeStamp(['c@example.com'])).toThrow(RangeError);

      await store.putAccount({ sub: 'someone', emails: ['C@example.com', 'b@example.com'], deleted: false });
      const known = await store.readAccount('someone', ['a@example.com']);
      expect(known.account).toEqual({ sub: 'someone', emails: ['c@example.com', 'b@example.com'], deleted: false });
      expect(known.changeStamp(['c@example.com', 'b@example.com'])).toBe(await store.changeStamp(['c@example.com', 'b@example.com']));
      expect(() => known.changeStamp(['a@example.com'])).toThrow(RangeError);

      // The stamps are those of the moment of the read; a later read sees a write about its emails, from either instance.
      const writer = await another();
      await writer.setExposures('c@example.com', ['LinkedIn']);
      const later = await store.readAccount('someone', []);
      expect(later.changeStamp(['c@example.com'])).not.toBe(known.changeStamp(['c@example.com']));
      expect(later.changeStamp(['c@example.com'])).toBe(await store.changeStamp(['c@example.com']));
      await writer.putAccount({ sub: 'someone', emails: ['d@example.com'], deleted: true });
      expect((await store.readAccount('someone', [])).account).toEqual({ sub: 'someone', emails: ['d@example.com'], deleted: true });
    });

    it("readAccount answers the person's added addresses and covers the verified ones' stamps; every write of them, from either instance, is seen by the next read", async (ctx) => {
      const { store, another } = await open(ctx, dialect, CATALOG);
      const writer = await another();
      const read = async () => {
        const { added, changeStamp } = await store.readAccount('someone', ['a@example.com']);
        return { added: added.map((row) => ({ email: row.email, verified: row.verifiedAt !== null, attempts: row.codeAttempts, code: row.codeHash })), changeStamp };
      };
      expect((await read()).added).toEqual([]);
      // The store's own write and then, after it read them (and may remember them), another instance's.
      expect(await store.addPersonEmail('someone', 'V@example.com', 1_000, 'operator', 10)).toBe('added');
      expect(await writer.addPersonEmail('someone', 'p@example.com', 2_000, null, 10)).toBe('added');
      const both = await read();
      expect(both.added).toEqual([
        { email: 'v@example.com', verified: true, attempts: 0, code: null },
        { email: 'p@example.com', verified: false, attempts: 0, code: null },
      ]);
      // The verified address's stamp comes with the read; the unverified one is not monitored, so not covered.
      expect(both.changeStamp(['a@example.com', 'v@example.com'])).toBe(await store.changeStamp(['a@example.com', 'v@example.com']));
      expect(() => both.changeStamp(['p@example.com'])).toThrow(RangeError);
      // A caller changing its copy changes nothing the next read answers.
      (await store.readAccount('someone', [])).added[0]!.email = 'changed@example.com';
      expect((await read()).added[0]!.email).toBe('v@example.com');

      expect(await writer.recordCodeSend('someone', 'p@example.com', { codeHash: 'hash', expiresAt: 9_000, at: 3_000, since: 0, perAddress: 5, perPerson: 5 })).toBe('recorded');
      expect((await read()).added[1]).toEqual({ email: 'p@example.com', verified: false, attempts: 0, code: 'hash' });
      await writer.countCodeAttempt('someone', 'p@example.com');
      expect((await read()).added[1]!.attempts).toBe(1);
      expect(await writer.markEmailVerified('someone', 'p@example.com', 4_000)).toBe(true);
      const verified = await read();
      expect(verified.added[1]).toMatchObject({ email: 'p@example.com', verified: true });
      expect(verified.changeStamp(['p@example.com'])).toBe(await store.changeStamp(['p@example.com']));
      expect(await writer.removePersonEmail('someone', 'v@example.com')).toBe(true);
      expect((await read()).added.map((row) => row.email)).toEqual(['p@example.com']);
      expect(await store.removePersonEmail('someone', 'p@example.com')).toBe(true);
      expect((await read()).added).toEqual([]);
    });
  });

  describe('writes that fail part-way leave nothing behind', () => {
    it('a resolution batch failing on a chosen row: nothing of it is written, no revision moves', async (ctx) => {
      const catalog = [...CATALOG, breach('Poison')];
      const { store, place } = await open(ctx, dialect, catalog);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'LinkedIn', 'Passwords')], T1);
      await place.failWhen('resolutions', "NEW.breach_id = 'Poison'");
      const emails = ['a@example.com', 'b@example.com'];
      const before = await everything(store, emails);
      // Deletes, then inserts and respellings, then the failing row: valid throughout, so only the database can stop it.
      const batch = [
        change('a@example.com', 'Adobe', 'Passwords', false),
        change('b@example.com', 'Adobe', 'Passwords'),
        change('b@example.com', 'LinkedIn', 'Email addresses'),
        change('a@example.com', 'LinkedIn', 'Passwords', false),
        change('b@example.com', 'Poison', 'Passwords'),
      ];
      await expect(store.applyResolutionChanges(batch, T2)).rejects.toThrow(INJECTED_FAILURE);
      expect(await everything(store, emails)).toEqual(before);
    });

    it.for([
      ['a resolution batch', (store: BreachStore) => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false), change('b@example.com', 'LinkedIn', 'Passwords')], T2)],
      ['setExposures', (store: BreachStore) => store.setExposures('a@example.com', ['LinkedIn'])],
      ['putBreach', (store: BreachStore) => store.putBreach(breach('Adobe', { domain: 'changed.example' }))],
      ['putBreaches', (store: BreachStore) => store.putBreaches([breach('Canva'), breach('Adobe', { domain: 'changed.example' })])],
      ['replaceCatalog', (store: BreachStore) => store.replaceCatalog([breach('Canva')])],
      // Its breaches leave (kept as removed, a change record per exposed address) and the loaded catalog's origin changes.
      ['replaceCatalog with a replacement', (store: BreachStore) => store.replaceCatalog([breach('Canva')], { origin: 'file', file: '/tmp/breaches.json', at: T3 })],
      ['removeInventedExposures', (store: BreachStore) => store.removeInventedExposures({ at: T3, to: 'hibp' })],
    ] as const)('%s failing at its revision bookkeeping, after all its rows: nothing of it is written', async ([, write], ctx) => {
      const { store, place, another } = await open(ctx, dialect, CATALOG);
      await store.replaceCatalog(CATALOG, { origin: 'demo', file: null, at: T1 });
      await store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
      await store.setExposures('b@example.com', ['LinkedIn'], true);
      await store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('b@example.com', 'LinkedIn', 'Email addresses')], T1);
      const emails = ['a@example.com', 'b@example.com'];
      await failAtRevisionBump(place);
      const { revision, ...before } = await everything(store, emails);
      await expect(write(store)).rejects.toThrow(INJECTED_FAILURE);
      // PostgreSQL's store revision is a sequence, and "nextval operations are never rolled back"
      // (https://www.postgresql.org/docs/current/functions-sequence.html): a failed write may
      // move it on, which costs a reader one needless re-read, never a stale answer. The
      // catalog revision and the change stamps, which readers key their answers on, stay.
      const { revision: after, ...now } = await everything(store, emails);
      expect(now).toEqual(before);
      expect(after).toBeGreaterThanOrEqual(revision);
      // A second instance reads the database afresh: nothing there either (stamps are per instance).
      const { stamp: _stamp, ...stored } = before;
      expect(await everything(await another(), emails)).toMatchObject(stored);
    });

    it('a catalog replacement or bulk load failing on a chosen breach keeps the catalog as it was', async (ctx) => {
      const { store, place, another } = await open(ctx, dialect, CATALOG);
      await place.failWhen('breaches', "NEW.id = 'Poison'");
      const before = await everything(store, []);
      await expect(store.replaceCatalog([breach('Adobe', { domain: 'changed.example' }), breach('Canva'), breach('Poison')])).rejects.toThrow(INJECTED_FAILURE);
      await expect(store.putBreaches([breach('Canva'), breach('Poison')])).rejects.toThrow(INJECTED_FAILURE);
      await expect(store.putBreach(breach('Poison'))).rejects.toThrow(INJECTED_FAILURE);
      expect(await everything(store, [])).toEqual(before);
      expect((await (await another()).listBreaches()).map((b) => b.id)).toEqual(['Adobe', 'LinkedIn']);
    });

    it.for([
      ['a breach kept as removed', 'removed_breaches', "NEW.id = 'LinkedIn'"],
      ["the loaded catalog's origin", 'catalog_origin', "NEW.origin = 'file'"],
      ["an exposed address's change record", 'catalog_changes', "NEW.email = 'b@example.com'"],
    ] as const)('a catalog replacement with a replacement failing at %s keeps the catalog, removed breaches, origin and records as they were', async ([, table, condition], ctx) => {
      const { store, place, another } = await open(ctx, dialect, [...CATALOG, breach('Canva')]);
      await store.replaceCatalog([...CATALOG, breach('Canva')], { origin: 'hibp', file: null, at: T1 });
      await store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
      await store.setExposures('b@example.com', ['Canva', 'LinkedIn']);
      await store.applyResolutionChanges([change('a@example.com', 'LinkedIn', 'Passwords')], T1);
      // Canva leaves first: an earlier removal is what the failed one must not disturb.
      await store.replaceCatalog(CATALOG, { origin: 'hibp', file: null, at: T2 });
      await place.failWhen(table, condition);
      const emails = ['a@example.com', 'b@example.com'];
      const before = await everything(store, emails);
      expect(before.removed.map(([id]) => id)).toEqual(['Canva']);
      expect(before.catalogChanges).toHaveLength(1);
      await expect(store.replaceCatalog([breach('Zynga')], { origin: 'file', file: '/tmp/breaches.json', at: T3 })).rejects.toThrow(INJECTED_FAILURE);
      expect(await everything(store, emails)).toEqual(before);
      const { stamp: _stamp, ...stored } = before;
      expect(await everything(await another(), emails)).toMatchObject(stored);
    });

    it('setExposures failing on a chosen breach keeps the previous set', async (ctx) => {
      const { store, place } = await open(ctx, dialect, CATALOG);
      await store.setExposures('a@example.com', ['Adobe']);
      await place.failWhen('exposures', "NEW.breach_id = 'Poison'");
      const before = await everything(store, ['a@example.com', 'new@example.com']);
      await expect(store.setExposures('a@example.com', ['LinkedIn', 'Poison'])).rejects.toThrow(INJECTED_FAILURE);
      await expect(store.setExposures('new@example.com', ['Adobe', 'Poison'])).rejects.toThrow(INJECTED_FAILURE);
      expect(await everything(store, ['a@example.com', 'new@example.com'])).toEqual(before);
    });
  });

  describe('writers at once', () => {
    it('a catalog replacement racing resolution batches for a data class it drops: each batch lands whole before it, or is refused whole after it', async (ctx) => {
      const { store: catalogWriter, another } = await open(ctx, dialect);
      const resolver = await another();
      for (let round = 0; round < 12; round++) {
        const gone = `Gone${round}`;
        const email = `user${round}@example.com`;
        await catalogWriter.replaceCatalog([breach('Keep'), breach(gone)]);
        // The replacement removes Gone (still resolvable, by its last known data classes) and
        // drops Passwords from Keep. Keep/Passwords comes last: a store that wrote while
        // checking would have written the others before meeting it.
        const batch = [change(email, gone, 'Passwords'), change(email, 'Keep', 'Email addresses'), change(email, 'Keep', 'Passwords')];
        // Who starts first alternates, and the other follows after 0–2 ms, so rounds meet at different points.
        const lag = () => new Promise((resolve) => setTimeout(resolve, round % 3));
        const replace = () => catalogWriter.replaceCatalog([breach('Keep', { dataClasses: ['Email addresses', 'IP addresses'] })], { origin: 'hibp', file: null, at: T2 });
        const resolve = () => resolver.applyResolutionChanges(batch, T1);
        const [, result] = await Promise.allSettled(round % 2 === 0 ? [replace(), lag().then(resolve)] : [lag().then(replace), resolve()]);
        const rows = (await resolver.getResolutions([email])).map((row) => `${row.breachId}/${row.dataClass}`);
        if (result.status === 'fulfilled') {
          expect(rows, `round ${round}`).toEqual([`${gone}/Passwords`, 'Keep/Email addresses', 'Keep/Passwords']);
        } else {
          expect(result.reason, `round ${round}`).toBeInstanceOf(ResolutionChangeError);
          expect(result.reason, `round ${round}`).toMatchObject({ index: 2, problem: 'unknown-data-class' });
          expect(rows, `round ${round}`).toEqual([]);
        }
        expect(
          (await resolver.listBreaches()).map((b) => `${b.id} ${b.dataClasses.join(', ')}`),
          `round ${round}`,
        ).toEqual(['Keep Email addresses, IP addresses']);
        expect([...(await resolver.removedBreaches()).keys()], `round ${round}`).toContain(gone);
      }
    });

    it("lets two instances write one person's resolutions at once: every batch lands whole", async (ctx) => {
      const { store: one, another } = await open(
        ctx,
        dialect,
        Array.from({ length: 10 }, (_, i) => breach(`B${i}`)),
      );
      const two = await another();
      const classes = ['Email addresses', 'IP addresses', 'Passwords'];
      // Overlapping batches, each a different window of the 30 (breach, class) rows.
      const all = Array.from({ length: 10 }, (_, b) => classes.map((dataClass) => change('shared@example.com', `B${b}`, dataClass))).flat();
      await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 === 0 ? one : two).applyResolutionChanges(all.slice(i, i + 8), T1)));
      const rows = await one.getResolutions(['shared@example.com']);
      expect(rows.map((row) => `${row.breachId}/${row.dataClass}`).sort()).toEqual(all.map((row) => `${row.breachId}/${row.dataClass}`).sort());
    });
  });
});
