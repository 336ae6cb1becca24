// The search interface's storage contract (server/search: ApiTokenStore and SearchIndex), one
// suite run on each store choice as openSearchStorage makes it: the token file and SQLite FTS5 over
// the SQLite breach store, or tokens and full-text search in the shared PostgreSQL database. The
// index follows the catalog it is built from (a breach added, changed or removed through the
// breach store is found, or not, on the next search) and the details feed when told; tokens are
// minted, found, listed and revoked alike, and seen at once by another instance. How the two
// engines rank a real catalog is compared in searchEngines.test.ts.
import { describe, expect, it, type TestContext } from 'vitest';
import type { Breach } from '../../shared/api/index.ts';
import type { BreachDetails } from '../../shared/catalog/index.ts';
import { BREACH_FILTER_FIELDS, parseMetadataFilter } from '../../shared/search/index.ts';
import { demoBreachDetails } from '../../server/catalog/demoDetails.ts';
import { openSearchStorage, migratePostgresAt, openPostgresBreachStoreAt } from '../support/storeOpeners.ts';
import { type SearchStorage } from '../../server/search/index.ts';
import { asyncBreachStore, type BreachStore } from '../../server/breaches/BreachStore.ts';
import { openSqliteBreachStore } from '../../server/breaches/SqliteBreachStore.ts';
import { DIALECTS, useStoreDialects, type Dialect } from '../support/storeDialects.ts';
import { breach } from './store/helpers.ts';

const dialects = useStoreDialects({ preparePostgres: async (url) => void (await migratePostgresAt(url)) });

const T = Date.parse('2026-03-01T10:00:00Z');

interface Opened {
  breaches: BreachStore;
  storage: SearchStorage;
  /** The details feed the index reads (by breach id); change it, then call `index.rebuild`. */
  details: Record<string, BreachDetails>;
  /** Another instance's search storage on the same database (on SQLite, the same token file). */
  another(): Promise<SearchStorage>;
}

async function open(ctx: TestContext, dialect: Dialect, catalog: readonly Breach[] = []): Promise<Opened> {
  const place = (await dialects.place(dialect)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
  const details = Object.create(null) as Record<string, BreachDetails>;
  const readDetails = () => ({ ...details });
  let breaches: BreachStore;
  let storageOf: () => Promise<SearchStorage>;
  if (dialect === 'sqlite') {
    const sync = openSqliteBreachStore(place.file);
    breaches = asyncBreachStore(sync);
    storageOf = () => openSearchStorage({ catalog: sync, databaseUrl: undefined, dataDir: place.dir, readDetails, readDetailsOf: (id) => details[id] });
  } else {
    breaches = await openPostgresBreachStoreAt({ url: place.url });
    storageOf = () => openSearchStorage({ catalog: undefined, databaseUrl: place.url, poolSize: 2, dataDir: place.dir, readDetails });
  }
  ctx.onTestFinished(() => breaches.close());
  const instance = async () => {
    const storage = await storageOf();
    ctx.onTestFinished(() => storage.close());
    return storage;
  };
  for (const item of catalog) details[item.id] = demoBreachDetails(item);
  if (catalog.length > 0) await breaches.replaceCatalog(catalog);
  return { breaches, storage: await instance(), details, another: instance };
}

const ids = (hits: { doc: { id: string } }[]) => hits.map((hit) => hit.doc.id);

const CATALOG = [
  breach('Adobe', { breachDate: '2013-10-04', dataClasses: ['Email addresses', 'Password hints', 'Passwords'] }),
  breach('Canva', { breachDate: '2019-05-24', domain: 'canva.com', dataClasses: ['Email addresses', 'Names', 'Usernames'] }),
  breach('Zynga', { breachDate: '2019-09-01', domain: 'zynga.com', dataClasses: ['Email addresses', 'Passwords', 'Phone numbers'], isSensitive: true }),
];

describe.each(DIALECTS)('the search storage contract on %s', (dialect) => {
  describe('the index', () => {
    it('finds catalog breaches by title and domain, the best scoring 1, every score in (0, 1], at most maxResults', async (ctx) => {
      const { storage } = await open(ctx, dialect, CATALOG);
      const hits = await storage.index.search({ query: 'canva', maxResults: 10 });
      expect(ids(hits)[0]).toBe('Canva');
      expect(hits[0]!.score).toBe(1);
      for (const hit of hits) expect(hit.score > 0 && hit.score <= 1).toBe(true);
      expect(hits[0]!.doc).toMatchObject({ id: 'Canva', domain: 'canva.com', dataClasses: ['Email addresses', 'Names', 'Usernames'] });
      expect(await storage.index.search({ query: 'passwords', maxResults: 1 })).toHaveLength(1);
      expect(await storage.index.search({ query: 'nothingmatchesthis', maxResults: 10 })).toEqual([]);
    });

    it('answers a filter without words newest first, then by id', async (ctx) => {
      const { storage } = await open(ctx, dialect, [...CATALOG, breach('Yahoo', { breachDate: '2019-09-01' })]);
      const notSensitive = parseMetadataFilter({ isSensitive: false }, BREACH_FILTER_FIELDS);
      expect(ids(await storage.index.search({ query: '', filter: notSensitive, maxResults: 10 }))).toEqual(['Yahoo', 'Canva', 'Adobe']);
      const all = parseMetadataFilter({ dataClasses: 'Email addresses' }, BREACH_FILTER_FIELDS);
      expect(ids(await storage.index.search({ query: '', filter: all, maxResults: 10 }))).toEqual(['Yahoo', 'Zynga', 'Canva', 'Adobe']);
    });

    it('follows the catalog: a breach added, changed or removed through the breach store is found, or not, on the next search', async (ctx) => {
      const { breaches, storage, details } = await open(ctx, dialect, CATALOG);
      const first = await storage.index.revision();
      expect(await storage.index.revision()).toBe(first);
      const added = breach('Quuxbook', { domain: 'quuxbook.example' });
      details[added.id] = demoBreachDetails(added);
      await breaches.putBreach(added);
      expect(ids(await storage.index.search({ query: 'quuxbook', maxResults: 10 }))).toEqual(['Quuxbook']);
      const second = await storage.index.revision();
      expect(second).not.toBe(first);
      await breaches.putBreach(breach('Quuxbook', { domain: 'renamed.example' }));
      expect((await storage.index.search({ query: 'quuxbook', maxResults: 10 }))[0]!.doc.domain).toBe('renamed.example');
      await breaches.replaceCatalog(CATALOG.filter((item) => item.id !== 'Canva'));
      expect(ids(await storage.index.search({ query: 'quuxbook canva', maxResults: 10 }))).toEqual([]);
      expect(ids(await storage.index.search({ query: 'adobe', maxResults: 10 }))).toEqual(['Adobe']);
      expect(await storage.index.revision()).not.toBe(second);
    });

    it('takes a details-only change (no catalog write) when rebuilt, with a new revision', async (ctx) => {
      const { storage, details } = await open(ctx, dialect, CATALOG);
      expect(await storage.index.search({ query: 'frobnicated', maxResults: 10 })).toEqual([]);
      const before = await storage.index.revision();
      details['Zynga'] = { ...details['Zynga']!, title: 'Zynga games', description: 'Accounts of a frobnicated word game.' };
      await storage.index.rebuild(['Zynga']);
      const hits = await storage.index.search({ query: 'frobnicated', maxResults: 10 });
      expect(ids(hits)).toEqual(['Zynga']);
      expect(hits[0]!.doc).toMatchObject({ title: 'Zynga games', description: 'Accounts of a frobnicated word game.' });
      expect(await storage.index.revision()).not.toBe(before);
    });
  });

  describe('API tokens', () => {
    it('mints a token shown once, and keeps what it may do', async (ctx) => {
      const { storage } = await open(ctx, dialect);
      const { id, token, info } = await storage.tokens.create('acct', { scopes: ['ai-search:read', 'ai-search:read'], expiresIn: 60, allowIps: [' 10.0.0.0/8 '], name: 'ci' }, T);
      expect(token).toMatch(new RegExp(`^bmst_${id}_[A-Za-z0-9_-]{43}$`));
      expect(info).toEqual({
        id,
        accountId: 'acct',
        name: 'ci',
        scopes: ['ai-search:read'],
        allowIps: ['10.0.0.0/8'],
        createdAt: '2026-03-01T10:00:00.000Z',
        expiresAt: '2026-03-01T10:01:00.000Z',
        revokedAt: undefined,
      });
      expect(await storage.tokens.get(id)).toEqual(info);
      expect(await storage.tokens.get('0000000000000000')).toBeUndefined();
      await expect(storage.tokens.create('acct', { scopes: [] }, T)).rejects.toThrow(/at least one scope/);
    });

    it('finds a token only by its whole bearer string', async (ctx) => {
      const { storage } = await open(ctx, dialect);
      const { token, info } = await storage.tokens.create('acct', { scopes: ['ai-search:run'] }, T);
      expect(await storage.tokens.find(token)).toEqual(info);
      const last = token.at(-1) === 'A' ? 'B' : 'A';
      expect(await storage.tokens.find(token.slice(0, -1) + last)).toBeUndefined();
      expect(await storage.tokens.find(token + 'x')).toBeUndefined();
      expect(await storage.tokens.find('')).toBeUndefined();
      expect(await storage.tokens.find(`bmst_0000000000000000_${token.slice(-43)}`)).toBeUndefined();
    });

    it('lists tokens oldest first, and revokes once: the first time stays', async (ctx) => {
      const { storage } = await open(ctx, dialect);
      const second = await storage.tokens.create('acct', { scopes: ['ai-search:read'] }, T + 1000);
      const first = await storage.tokens.create('acct', { scopes: ['ai-search:read'] }, T);
      expect((await storage.tokens.list()).map((info) => info.id)).toEqual([first.id, second.id]);
      expect(await storage.tokens.revoke(first.id, T + 5000)).toBe(true);
      expect(await storage.tokens.revoke(first.id, T + 9000)).toBe(true);
      expect((await storage.tokens.get(first.id))?.revokedAt).toBe('2026-03-01T10:00:05.000Z');
      expect((await storage.tokens.find(first.token))?.revokedAt).toBe('2026-03-01T10:00:05.000Z');
      expect(await storage.tokens.revoke('0000000000000000', T)).toBe(false);
      expect((await storage.tokens.get(second.id))?.revokedAt).toBeUndefined();
    });

    it('are seen by another instance at once, created and revoked', async (ctx) => {
      const { storage, another } = await open(ctx, dialect);
      const other = await another();
      const { id, token } = await storage.tokens.create('acct', { scopes: ['ai-search:read'] }, T);
      expect((await other.tokens.find(token))?.id).toBe(id);
      await other.tokens.revoke(id, T + 1);
      expect((await storage.tokens.find(token))?.revokedAt).toBe('2026-03-01T10:00:00.001Z');
    });
  });
});
