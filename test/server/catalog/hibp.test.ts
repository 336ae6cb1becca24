import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Breach } from '../../../shared/api/index.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { HibpCatalogError, hibpRecordToBreach, HibpBreachRecord, loadHibpCatalog, loadHibpCatalogFile, parseHibpCatalog } from '../../../server/catalog/hibp.ts';

const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
const FIXTURE = path.join(PROJECT_ROOT, '../shared/fixtures/hibp/breaches.json');
const fixtureMissing = skipWithoutFixture(FIXTURE, 'the real HIBP catalog tests');

function record(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Name: 'Adobe',
    Title: 'Adobe',
    Domain: 'adobe.com',
    BreachDate: '2013-10-04',
    AddedDate: '2013-12-04T00:00:00Z',
    ModifiedDate: '2022-05-15T23:52:49Z',
    PwnCount: 152445165,
    Description: 'In October 2013, 153 million Adobe accounts were breached...',
    DataClasses: ['Password hints', 'Email addresses', 'Passwords', 'Usernames'],
    IsVerified: true,
    IsFabricated: false,
    IsSensitive: false,
    IsRetired: false,
    IsSpamList: false,
    IsMalware: false,
    IsSubscriptionFree: false,
    ...overrides,
  };
}

describe('hibpRecordToBreach', () => {
  it('maps fields, truncates dates to the minute and orders data classes', () => {
    expect(hibpRecordToBreach(HibpBreachRecord.parse(record()))).toEqual({
      id: 'Adobe',
      domain: 'adobe.com',
      breachDate: '2013-10-04',
      addedDate: '2013-12-04T00:00:00Z',
      modifiedDate: '2022-05-15T23:52:00Z',
      dataClasses: ['Email addresses', 'Password hints', 'Passwords', 'Usernames'],
      isSensitive: false,
    });
  });

  it('keeps an empty domain and the sensitive flag', () => {
    const breach = hibpRecordToBreach(HibpBreachRecord.parse(record({ Domain: '', IsSensitive: true })));
    expect(breach.domain).toBe('');
    expect(breach.isSensitive).toBe(true);
  });

  it('de-duplicates data classes case-insensitively, keeping the first spelling', () => {
    const breach = hibpRecordToBreach(HibpBreachRecord.parse(record({ DataClasses: ['names', 'IP addresses', 'Names', 'Email addresses'] })));
    expect(breach.dataClasses).toEqual(['Email addresses', 'IP addresses', 'names']);
  });

  it('clamps a modifiedDate before addedDate to addedDate', () => {
    const breach = hibpRecordToBreach(HibpBreachRecord.parse(record({ AddedDate: '2020-01-02T10:20:30Z', ModifiedDate: '2020-01-01T00:00:00Z' })));
    expect(breach.modifiedDate).toBe('2020-01-02T10:20:00Z');
    expect(Breach.safeParse(breach).success).toBe(true);
  });

  it('normalizes offsets to UTC', () => {
    const breach = hibpRecordToBreach(HibpBreachRecord.parse(record({ AddedDate: '2020-01-02T01:20:30+02:00', ModifiedDate: '2020-01-02T01:20:30+02:00' })));
    expect(breach.addedDate).toBe('2020-01-01T23:20:00Z');
  });
});

describe('parseHibpCatalog', () => {
  it('skips retired, fabricated and spam-list records and counts them', () => {
    const result = parseHibpCatalog([
      record({ Name: 'Zeta' }),
      record({ Name: 'Alpha' }),
      record({ Name: 'Old', IsRetired: true }),
      record({ Name: 'Fake', IsFabricated: true }),
      record({ Name: 'Spam', IsSpamList: true }),
    ]);
    expect(result.total).toBe(5);
    expect(result.skipped).toEqual({ retired: 1, fabricated: 1, spamList: 1 });
    expect(result.breaches.map((b) => b.id)).toEqual(['Alpha', 'Zeta']);
  });

  it('accepts records without the newer flags', () => {
    const { IsRetired: _r, IsSpamList: _s, IsFabricated: _f, ...old } = record();
    expect(parseHibpCatalog([old]).breaches).toHaveLength(1);
  });

  it('names the record index and field of a bad record', () => {
    const bad = () => parseHibpCatalog([record(), record({ Name: 'Broken', AddedDate: 'yesterday' })]);
    expect(bad).toThrow(HibpCatalogError);
    expect(bad).toThrow(/record 1 \("Broken"\), field "AddedDate"/);
    try {
      bad();
    } catch (error) {
      expect((error as HibpCatalogError).index).toBe(1);
      expect((error as HibpCatalogError).field).toBe('AddedDate');
    }
  });

  it('names a nested field and a missing one', () => {
    expect(() => parseHibpCatalog([record({ DataClasses: ['Names', 42] })])).toThrow(/record 0 \("Adobe"\), field "DataClasses\[1\]"/);
    const { IsSensitive: _omitted, ...missing } = record();
    expect(() => parseHibpCatalog([missing])).toThrow(/field "IsSensitive"/);
  });

  it('refuses a non-array, and duplicate names', () => {
    expect(() => parseHibpCatalog({ breaches: [] })).toThrow(/JSON array/);
    expect(() => parseHibpCatalog([record(), record()])).toThrow(/record 1 \("Adobe"\), field "Name": duplicate of record 0/);
  });
});

describe('loadHibpCatalog errors', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'hibp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file when it is missing or not JSON', () => {
    expect(() => loadHibpCatalog(path.join(dir, 'absent.json'))).toThrow(/cannot read the HIBP catalog .*absent\.json/);
    const broken = path.join(dir, 'broken.json');
    writeFileSync(broken, '[{"Name": ');
    expect(() => loadHibpCatalog(broken)).toThrow(/broken\.json is not valid JSON/);
  });

  it('prefixes record errors with the file', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([record({ BreachDate: '2013-13-01' })]));
    expect(() => loadHibpCatalog(bad)).toThrow(/bad\.json: record 0 \("Adobe"\), field "BreachDate"/);
  });
});

describe.skipIf(fixtureMissing)('the real HIBP catalog (../shared/fixtures/hibp/breaches.json)', () => {
  it('converts 834 records into 813 valid breaches', () => {
    const result = loadHibpCatalog(FIXTURE);
    expect(result.total).toBe(834);
    expect(result.skipped).toEqual({ retired: 2, fabricated: 3, spamList: 16 });
    expect(result.breaches).toHaveLength(813);
    for (const breach of result.breaches) expect(Breach.safeParse(breach).error).toBeUndefined();
    expect(new Set(result.breaches.map((b) => b.id)).size).toBe(813);
    expect(loadHibpCatalogFile(FIXTURE)).toEqual(result.breaches);
  });

  it('keeps real details: minute dates, empty domains, sensitive breaches', () => {
    const breaches = loadHibpCatalogFile(FIXTURE);
    expect(breaches.every((b) => /T\d\d:\d\d:00Z$/.test(b.addedDate) && /T\d\d:\d\d:00Z$/.test(b.modifiedDate))).toBe(true);
    expect(breaches.some((b) => b.domain === '')).toBe(true);
    expect(breaches.filter((b) => b.isSensitive).length).toBeGreaterThan(0);
    expect(breaches.find((b) => b.id === '000webhost')).toMatchObject({
      domain: '000webhost.com',
      breachDate: '2015-03-01',
      addedDate: '2015-10-26T23:35:00Z',
      modifiedDate: '2017-12-10T21:44:00Z',
      dataClasses: ['Email addresses', 'IP addresses', 'Names', 'Passwords'],
    });
  });
});
