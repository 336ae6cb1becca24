import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dataClassKey, dataClassLabel, KNOWN_DATA_CLASSES, matchesBreachQuery, type UserBreach } from '../../shared/api/index.ts';
import { DATA_CLASS_WEIGHTS, EMAIL_ADDRESSES } from '../../server/catalog/demoWords.ts';

describe('dataClassKey: one identity for a display name, any casing of it and its slug', () => {
  it.each([
    ['Email addresses', 'email-addresses'],
    ['EMAIL ADDRESSES', 'email-addresses'],
    ['email-addresses', 'email-addresses'],
    ['  email_addresses ', 'email-addresses'],
    ['IP addresses', 'ip-addresses'],
    ["Driver's licenses", 'driver-s-licenses'],
    ['Vehicle identification numbers (VINs)', 'vehicle-identification-numbers-vins'],
    ['School grades (class levels)', 'school-grades-class-levels'],
    ['Données personnelles', 'données-personnelles'],
    ['???', 'x3f3f3f'],
    ['', ''],
    ['   ', ''],
  ])('%j → %j', (name, key) => {
    expect(dataClassKey(name)).toBe(key);
  });

  it('is idempotent: a key is its own key (so slugs sent by a service match)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (name) => {
        expect(dataClassKey(dataClassKey(name))).toBe(dataClassKey(name));
      }),
    );
  });

  it('ignores case and how words are separated', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    const separator = fc.stringMatching(/^[ \-_.,/()']{1,3}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), separator, separator, (words, a, b) => {
        expect(dataClassKey(words.join(a).toUpperCase())).toBe(dataClassKey(words.join(b).toLowerCase()));
      }),
    );
  });

  it('keeps Have I Been Pwned’s data classes apart (no two share a key)', () => {
    expect(new Set(KNOWN_DATA_CLASSES.map(dataClassKey)).size).toBe(KNOWN_DATA_CLASSES.length);
  });
});

describe('dataClassLabel: how a class a service named is shown', () => {
  it.each([
    ['email-addresses', 'Email addresses'],
    ['passwords', 'Passwords'],
    ['pins', 'PINs'],
    ['ip-addresses', 'IP addresses'],
    ['driver-s-licenses', "Driver's licenses"],
    ['shoe-sizes', 'Shoe sizes'],
    ['Email addresses', 'Email addresses'],
    ['email addresses', 'email addresses'],
    ['Shoe Sizes', 'Shoe Sizes'],
  ])('%j → %j', (name, label) => {
    expect(dataClassLabel(name)).toBe(label);
  });

  it('names the same class as what it labels, so the label can be sent back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (name) => {
        expect(dataClassKey(dataClassLabel(name))).toBe(dataClassKey(name));
      }),
    );
    for (const name of KNOWN_DATA_CLASSES) expect(dataClassLabel(dataClassKey(name))).toBe(name);
  });

  it('knows every class the demo catalog uses', () => {
    for (const name of [EMAIL_ADDRESSES, ...DATA_CLASS_WEIGHTS.map(([n]) => n)]) expect(KNOWN_DATA_CLASSES, name).toContain(name);
  });
});

describe('matchesBreachQuery across spellings', () => {
  const item: UserBreach = {
    breach: {
      id: 'B',
      domain: 'b.example',
      breachDate: '2020-01-01',
      addedDate: '2020-02-01T10:00:00Z',
      modifiedDate: '2020-02-01T10:00:00Z',
      dataClasses: ['email-addresses', 'Passwords'],
      isSensitive: false,
    },
    breachedAccounts: [{ email: 'a@example.com', resolvedDataClasses: { 'Email addresses': {} } }],
  };
  it.each([
    [{ dataClasses: ['Email addresses'] }, true],
    [{ dataClasses: ['passwords'] }, true],
    [{ dataClasses: ['email'] }, false],
    [{ unresolvedDataClasses: ['email-addresses'] }, false],
    [{ unresolvedDataClasses: ['EMAIL_ADDRESSES', 'passwords'] }, true],
  ])('%j → %s', (query, expected) => {
    expect(matchesBreachQuery(item, { includeSensitive: false, ...query })).toBe(expected);
  });
});
