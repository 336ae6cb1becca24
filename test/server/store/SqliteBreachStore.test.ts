import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDemoCatalog } from '../../../server/catalog/demoCatalog.ts';
import type { ResolutionChange } from '../../../server/store/BreachStore.ts';
import { InvalidBreachError, ResolutionChangeError } from '../../../server/store/errors.ts';
import type { SqliteBreachStore } from '../../../server/store/SqliteBreachStore.ts';
import { breach, memoryStore } from './helpers.ts';

const T1 = '2026-02-01T10:00:00Z';
const T2 = '2026-02-02T11:30:00Z';

function change(email: string, breachId: string, dataClass: string, resolved = true): ResolutionChange {
  return { email, breachId, dataClass, resolved };
}

let store: SqliteBreachStore;
beforeEach(() => {
  store = memoryStore([breach('Adobe'), breach('LinkedIn', { dataClasses: ['Email addresses', 'Passwords'] })]);
});
afterEach(() => store.close());

describe('catalog', () => {
  it('lists breaches ordered by id, and gets one', () => {
    store.putBreach(breach('Canva', { domain: '', isSensitive: true }));
    expect(store.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'Canva', 'LinkedIn']);
    expect(store.getBreach('Canva')).toEqual(breach('Canva', { domain: '', isSensitive: true }));
    expect(store.getBreach('Nope')).toBeUndefined();
    expect(store.catalogSize()).toBe(3);
  });

  it('replaces a breach with putBreach', () => {
    store.putBreach(breach('Adobe', { dataClasses: ['Email addresses', 'Password hints'], modifiedDate: '2020-01-01T00:00:00Z' }));
    expect(store.getBreach('Adobe')?.dataClasses).toEqual(['Email addresses', 'Password hints']);
    expect(store.catalogSize()).toBe(2);
  });

  it('hands out copies the caller may change', () => {
    store.listBreaches()[0]!.dataClasses.push('Mutated');
    store.getBreach('Adobe')!.domain = 'evil.example';
    expect(store.getBreach('Adobe')).toEqual(breach('Adobe'));
  });

  it('refuses invalid breaches and duplicate ids, leaving the catalog as it was', () => {
    expect(() => store.putBreach(breach('Bad', { modifiedDate: '2000-01-01T00:00:00Z' }))).toThrow(InvalidBreachError);
    expect(() => store.replaceCatalog([breach('A'), breach('A')])).toThrow(/appears twice/);
    expect(() => store.replaceCatalog([breach('A'), breach('B', { breachDate: 'soon' })])).toThrow(/catalog index 1/);
    expect(store.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'LinkedIn']);
  });

  it('replaceCatalog keeps resolutions and exposures, even for a dropped breach', () => {
    store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'LinkedIn', 'Passwords')], T1);
    store.replaceCatalog([breach('Adobe'), breach('Zynga')]);
    expect(store.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'Zynga']);
    expect(store.getExposures(['a@example.com']).get('a@example.com')).toEqual(['Adobe', 'LinkedIn']);
    expect(store.getResolutions(['a@example.com']).map((r) => r.breachId)).toEqual(['Adobe', 'LinkedIn']);
  });
});

describe('accounts and users', () => {
  it('stores accounts with lower-cased, de-duplicated emails', () => {
    expect(store.getAccount('sub-1')).toBeUndefined();
    store.putAccount({ sub: 'sub-1', emails: ['Alice@Example.com', 'alice@example.com', 'bob@example.com'], deleted: false });
    expect(store.getAccount('sub-1')).toEqual({ sub: 'sub-1', emails: ['alice@example.com', 'bob@example.com'], deleted: false });
    store.putAccount({ sub: 'sub-1', emails: [], deleted: true });
    expect(store.getAccount('sub-1')).toEqual({ sub: 'sub-1', emails: [], deleted: true });
  });

  it('creates a user once', () => {
    expect(store.hasUser('sub-1')).toBe(false);
    expect(store.createUser('sub-1')).toBe(true);
    expect(store.createUser('sub-1')).toBe(false);
    expect(store.hasUser('sub-1')).toBe(true);
    expect(store.hasUser('sub-2')).toBe(false);
  });
});

describe('exposures', () => {
  it('round-trips per email, keyed in lower case, ordered by id', () => {
    store.setExposures('Alice@Example.com', ['LinkedIn', 'Adobe', 'Adobe']);
    store.setExposures('nobody@example.com', []);
    const exposures = store.getExposures(['ALICE@example.com', 'nobody@example.com', 'unknown@example.com']);
    expect([...exposures]).toEqual([
      ['alice@example.com', ['Adobe', 'LinkedIn']],
      ['nobody@example.com', []],
    ]);
  });

  it('replaces the previous set', () => {
    store.setExposures('a@example.com', ['Adobe', 'LinkedIn']);
    store.setExposures('a@example.com', ['LinkedIn']);
    expect(store.getExposures(['a@example.com']).get('a@example.com')).toEqual(['LinkedIn']);
    store.setExposures('a@example.com', []);
    expect(store.getExposures(['a@example.com']).get('a@example.com')).toEqual([]);
  });

  it('answers an empty list with an empty map', () => {
    expect(store.getExposures([]).size).toBe(0);
  });
});

describe('resolutions', () => {
  it('stores the breach spelling and a lower-case email', () => {
    store.applyResolutionChanges([change('A@Example.com', 'Adobe', 'ip ADDRESSES')], T1);
    expect(store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'IP addresses', resolvedAt: T1 }]);
  });

  it('keeps resolvedAt when resolved again, in any case', () => {
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
    store.applyResolutionChanges([change('A@EXAMPLE.COM', 'Adobe', 'passwords')], T2);
    expect(store.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: T1 }]);
  });

  it('deletes on unresolve, idempotently', () => {
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'Adobe', 'IP addresses')], T1);
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'PASSWORDS', false)], T2);
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false)], T2);
    expect(store.getResolutions(['a@example.com']).map((r) => r.dataClass)).toEqual(['IP addresses']);
  });

  it('returns only the asked emails, ordered by email, breach and data class', () => {
    store.applyResolutionChanges(
      [
        change('b@example.com', 'LinkedIn', 'Passwords'),
        change('a@example.com', 'LinkedIn', 'Email addresses'),
        change('a@example.com', 'Adobe', 'Passwords'),
        change('a@example.com', 'Adobe', 'Email addresses'),
        change('c@example.com', 'Adobe', 'Passwords'),
      ],
      T1,
    );
    expect(store.getResolutions(['b@example.com', 'A@example.com']).map((r) => `${r.email} ${r.breachId} ${r.dataClass}`)).toEqual([
      'a@example.com Adobe Email addresses',
      'a@example.com Adobe Passwords',
      'a@example.com LinkedIn Email addresses',
      'b@example.com LinkedIn Passwords',
    ]);
    expect(store.getResolutions([])).toEqual([]);
  });

  describe('atomicity', () => {
    beforeEach(() => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1));

    const cases: [string, ResolutionChange, RegExp][] = [
      ['an unknown breach', change('a@example.com', 'NoSuchBreach', 'Passwords'), /change 2: the catalog has no breach "NoSuchBreach"/],
      ['a data class the breach lacks', change('a@example.com', 'LinkedIn', 'Usernames'), /change 2: breach "LinkedIn" has no data class "Usernames"/],
      ['an empty email', change('  ', 'Adobe', 'Passwords'), /change 2: the email is empty/],
    ];
    it.each(cases)('a list with %s applies nothing', (_name, bad, message) => {
      const before = store.getResolutions(['a@example.com', 'b@example.com']);
      const revision = store.revision();
      const changes = [change('b@example.com', 'Adobe', 'Passwords'), change('a@example.com', 'Adobe', 'Passwords', false), bad];
      expect(() => store.applyResolutionChanges(changes, T2)).toThrow(ResolutionChangeError);
      expect(() => store.applyResolutionChanges(changes, T2)).toThrow(message);
      expect(store.getResolutions(['a@example.com', 'b@example.com'])).toEqual(before);
      expect(store.revision()).toBe(revision);
    });

    it('reports where the bad change is', () => {
      try {
        store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Names'), change('a@example.com', 'Nope', 'Names')], T2);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ResolutionChangeError);
        expect((error as ResolutionChangeError).index).toBe(0);
        expect((error as ResolutionChangeError).problem).toBe('unknown-data-class');
      }
    });
  });

  it('refuses a timestamp that is not a date-time', () => {
    expect(() => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], 'now')).toThrow(RangeError);
  });
});

describe('revision', () => {
  it('rises on every write that changes something', () => {
    const seen = [store.revision()];
    const next = (write: () => void): void => {
      write();
      const revision = store.revision();
      expect(revision).toBeGreaterThan(seen.at(-1)!);
      seen.push(revision);
    };
    next(() => store.putBreach(breach('Canva')));
    next(() => store.replaceCatalog([breach('Adobe')]));
    next(() => store.putAccount({ sub: 's', emails: ['a@example.com'], deleted: false }));
    next(() => store.createUser('s'));
    next(() => store.setExposures('a@example.com', ['Adobe']));
    next(() => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1));
    next(() => store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords', false)], T1));
  });

  it('stays put when nothing changes', () => {
    store.createUser('s');
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T1);
    const revision = store.revision();
    store.createUser('s');
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'Passwords')], T2);
    store.applyResolutionChanges([change('a@example.com', 'Adobe', 'IP addresses', false)], T2);
    store.applyResolutionChanges([], T2);
    expect(store.revision()).toBe(revision);
  });
});

describe('query plans', () => {
  it('looks resolutions up through the primary key index, not a scan', () => {
    const plan = store._explainQueryPlan('resolutions');
    expect(plan.some((line) => /SEARCH resolutions USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SCAN resolutions/.test(line))).toBe(false);
    expect(plan.some((line) => /TEMP B-TREE/.test(line))).toBe(false);
  });

  it('looks exposures up through the primary key indexes', () => {
    const plan = store._explainQueryPlan('exposures');
    expect(plan.some((line) => /SEARCH r USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SEARCH e USING PRIMARY KEY \(email=\?\)/.test(line))).toBe(true);
    expect(plan.some((line) => /SCAN (r|e)\b|TEMP B-TREE/.test(line))).toBe(false);
  });
});

describe('at benchmark scale (20 emails × 2,000 breaches)', () => {
  // Timings belong to bench:server; this checks the lookups stay complete at that scale.
  it('answers per-request lookups completely', () => {
    const catalog = generateDemoCatalog({ count: 2000 });
    const big = memoryStore(catalog);
    try {
      const emails = Array.from({ length: 20 }, (_, i) => `user${i}@example.com`);
      const others = Array.from({ length: 40 }, (_, i) => `other${i}@example.com`);
      for (const email of [...emails, ...others])
        big.setExposures(
          email,
          catalog.map((b) => b.id),
        );
      const changes = [...emails, ...others].flatMap((email) => catalog.filter((_, i) => i % 4 === 0).map((b) => change(email, b.id, b.dataClasses[0]!)));
      big.applyResolutionChanges(changes, T1);

      const exposures = big.getExposures(emails);
      expect(exposures.size).toBe(20);
      for (const ids of exposures.values()) expect(ids).toHaveLength(2000);
      expect(big.getResolutions(emails)).toHaveLength(20 * 500);
    } finally {
      big.close();
    }
  });
});
