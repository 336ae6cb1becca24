// The question's answer beside the ranking (shared/search/ask.ts), checked by properties over any
// text and word soups of what questions say (fast-check): planning never throws and always gives
// a filter the filter engine accepts; the text sent to an engine reads back as the same parts;
// arranging keeps only what the filter admits, in the order asked, no more than asked.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerSentence,
  arrange,
  parseMetadataFilter,
  personKeys,
  planAsk,
  QUESTION_FILTER_FIELDS,
  questionFilter,
  questionText,
  understandQuery,
  type AccountStates,
  type BreachSearchDocument,
} from '../../../shared/search/index.ts';

const NOW = Date.parse('2025-06-01T00:00:00Z');
const WORDS = [
  'passwords',
  'credit cards',
  'phone',
  'emails',
  'unverified',
  'verified',
  'not',
  'without',
  "didn't",
  'leak',
  'sensitive',
  'non-sensitive',
  'fake',
  'spam',
  'retired',
  'malware',
  'stealer logs',
  'biggest',
  'the',
  '5',
  'largest',
  'top',
  '3',
  'smallest',
  'latest',
  'oldest',
  'most',
  'recent',
  'over',
  '1',
  'million',
  'accounts',
  'fewer',
  'than',
  '1,000',
  'users',
  'how',
  'many',
  'count',
  'fixed',
  "haven't",
  'partly',
  'new',
  'since',
  'last',
  'sync',
  'alex@example.com',
  'in',
  '2019',
  'after',
  '2020',
  'between',
  '2015',
  'and',
  '2016',
  'adobe.com',
  'linkedin',
  'breaches',
  'breach',
  'passowrds',
  'bigest',
  '?',
  'games',
];
const soup = fc.array(fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 6 })), { maxLength: 16 }).map((words) => words.join(' '));
const anyText = fc.oneof(soup, fc.string({ maxLength: 120 }), fc.string({ unit: 'binary', maxLength: 120 }));
const names = [
  { id: 'LinkedIn', title: 'LinkedIn' },
  { id: 'LinkedInScrape', title: 'LinkedIn Scraped Data' },
  { id: 'Adobe', title: 'Adobe' },
];

const docArb: fc.Arbitrary<BreachSearchDocument> = fc.record({
  id: fc.constantFrom('A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'),
  title: fc.constantFrom('Alpha', 'Beta', 'LinkedIn'),
  description: fc.constant(''),
  domain: fc.constantFrom('', 'adobe.com', 'a.io'),
  breachDate: fc.integer({ min: 0, max: 1_800_000_000 }),
  addedAt: fc.integer({ min: 0, max: 1_800_000_000 }),
  dataClasses: fc.subarray(['Passwords', 'Email addresses', 'Phone numbers', 'Partial credit card data', 'Credit cards']),
  isSensitive: fc.boolean(),
  isVerified: fc.boolean(),
  pwnCount: fc.integer({ min: 0, max: 1_000_000_000 }),
  isFabricated: fc.boolean(),
  isSpamList: fc.boolean(),
  isRetired: fc.boolean(),
  isMalware: fc.boolean(),
  isStealerLog: fc.boolean(),
});
const docsArb = fc.uniqueArray(docArb, { selector: (doc) => doc.id, maxLength: 8 });
const accountOf = (docs: readonly BreachSearchDocument[]): AccountStates =>
  new Map(docs.map((doc, i) => [doc.id, { emails: i % 2 === 0 ? ['alex@example.com'] : [], resolution: (['fixed', 'partly', 'unfixed'] as const)[i % 3]!, isNew: i % 4 === 0 }]));

describe('asking a question (properties)', () => {
  it('never throws, and its filter is one the filter engine accepts', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const plan = planAsk(text, { now: NOW, names });
        const filter = questionFilter(plan.parts);
        if (filter !== undefined) expect(() => parseMetadataFilter(filter, QUESTION_FILTER_FIELDS)).not.toThrow();
      }),
      { numRuns: 800 },
    );
  });

  it('reads the text it sends to an engine back as the same parts, with the same words left', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const first = understandQuery(text, { now: NOW, names });
        const again = understandQuery(questionText(first), { now: NOW, names });
        expect(again.parts.map((part) => part.key).sort()).toEqual(first.parts.map((part) => part.key).sort());
        expect(again.remaining).toBe(first.remaining);
      }),
      { numRuns: 800 },
    );
  });

  it('keeps only what the question admits, in the order asked, no more than asked, and says a count of exactly those', () => {
    fc.assert(
      fc.property(soup, docsArb, (text, docs) => {
        const { parts } = understandQuery(text, { now: NOW, names });
        const account = accountOf(docs);
        const { hits, total } = arrange(
          docs.map((doc) => ({ doc })),
          parts,
          account,
        );
        const keys = personKeys(parts, account);
        for (const { doc } of hits) if (keys) expect(keys).toContain(doc.id);
        const order = parts.findLast((part) => part.kind === 'order');
        if (order?.kind === 'order') {
          if (order.limit !== undefined) expect(hits.length).toBeLessThanOrEqual(order.limit);
          const values = hits.map(({ doc }) => (order.order.by === 'pwnCount' ? doc.pwnCount : doc.breachDate));
          const sorted = [...values].sort((a, b) => (order.order.direction === 'desc' ? b - a : a - b));
          expect(values).toEqual(sorted);
        } else expect(hits.length).toBe(total);
        const sentence = answerSentence(
          parts,
          hits.map(({ doc }) => doc),
          total,
        );
        if (parts.some((part) => part.kind === 'count')) expect(sentence).toMatch(new RegExp(`^${total.toLocaleString('en-US')} breach`));
      }),
      { numRuns: 500 },
    );
  });
});
