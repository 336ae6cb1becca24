// What the engine calls a match, and how a filter reads: no hit scoring 0 counts (finding 6 of
// issue 25: the placeholder as plain text answered "8 breaches match" with seven at 0.00), an
// answer without words says the filters decided, and dates in a shown filter read as days.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadCatalogFile } from '../../../server/catalog/source.ts';
import { BREACH_FILTER_FIELDS, BreachSearchIndex, extractiveAnswer, readableFilter, toChunk, toSearchDocument } from '../../../shared/search/index.ts';
import { HIBP_CATALOG } from '../../search/evaluation.ts';

const source = loadCatalogFile(HIBP_CATALOG);
const index = new BreachSearchIndex(new Database(':memory:'));
index.replaceAll(source.breaches.map((breach) => toSearchDocument(breach, source.details[breach.id])));

describe('matches', () => {
  it('leaves out hits scoring 0: words in most breaches ("passwords", "leaked") rank nothing', () => {
    const hits = index.search({ query: 'which of my breaches leaked passwords after 2020?', maxResults: 1000 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.score, hit.doc.id).toBeGreaterThan(0);
    // "2020" is what tells breaches apart here: every match names it.
    for (const hit of hits) expect(`${hit.doc.title} ${hit.doc.description}`, hit.doc.id).toMatch(/2020/);
  });

  it('keeps every hit of words that tell breaches apart, and the filter alone decides without words', () => {
    expect(index.search({ query: 'minecraft', maxResults: 1000 })).toHaveLength(14);
    const onlyFilter = index.search({ query: 'which of my', filter: { dataClasses: 'Password hints' }, maxResults: 1000 });
    expect(onlyFilter.map((hit) => [hit.doc.id, hit.score])).toEqual([
      ['TheClubPenguinExperience', 1],
      ['Adobe', 1],
    ]);
  });

  it('answers "the filters" when no words were left to rank', () => {
    const chunks = index.search({ query: '', filter: { dataClasses: 'Password hints' }, maxResults: 10 }).map(toChunk);
    expect(extractiveAnswer('', chunks)).toMatch(/^2 breaches match the filters:\n/);
    expect(extractiveAnswer('  ', [])).toBe('No breach in the catalog matches the filters.');
    expect(extractiveAnswer('adobe', [])).toBe('No breach in the catalog matches "adobe".');
  });
});

describe('readableFilter', () => {
  it('shows seconds fields as UTC days (or times off midnight), everything else as sent', () => {
    const filter = {
      breachDate: { $gte: 1_609_459_200, $lt: 1_640_995_200 },
      timestamp: 1_609_459_201,
      dataClasses: { $in: ['Passwords'] },
      pwnCount: { $gt: 1_609_459_200 },
      key: { $in: ['breaches/Adobe'] },
    };
    expect(readableFilter(filter, BREACH_FILTER_FIELDS)).toEqual({
      breachDate: { $gte: '2021-01-01', $lt: '2022-01-01' },
      timestamp: '2021-01-01T00:00:01Z',
      dataClasses: { $in: ['Passwords'] },
      pwnCount: { $gt: 1_609_459_200 },
      key: { $in: ['breaches/Adobe'] },
    });
  });
});
