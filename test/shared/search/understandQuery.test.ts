// Query understanding (shared/search/understandQuery.ts): examples of each kind of part, the
// clock injected for relative dates, dismissed parts staying words, and fast-check properties
// (never throws; only removes words; recognised parts leave the text; idempotent on its output).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { understandQuery, type QueryPart } from '../../../shared/search/understandQuery.ts';

const NOW = Date.parse('2026-11-26T08:00:00Z');
const understand = (query: string, options: Parameters<typeof understandQuery>[1] = {}) => understandQuery(query, { now: NOW, ...options });
/** Each part as "label" (data classes, flags, domains) or "label from..until" (dates). */
const brief = (parts: QueryPart[]) => parts.map((part) => (part.kind === 'dates' ? `${part.label} ${part.from ?? ''}..${part.until ?? ''}` : part.label));

describe('understandQuery', () => {
  it('reads the Search placeholder as two chips and leaves nothing to rank', () => {
    const { parts, remaining } = understand('which of my breaches leaked passwords after 2020?');
    expect(brief(parts)).toEqual(['Passwords', 'After 2020 2021-01-01..']);
    expect(remaining).toBe('');
  });

  it.each([
    ['passwords', ['Passwords']],
    ['password', ['Passwords']],
    ['password hashes', ['Passwords']],
    ['hashed passwords', ['Passwords']],
    ['phone numbers', ['Phone numbers']],
    ['phone number', ['Phone numbers']],
    ['emails', ['Email addresses']],
    ['e-mail addresses', ['Email addresses']],
    ['ip addresses', ['IP addresses']],
    ['IP', ['IP addresses']],
    ['date of birth', ['Dates of birth']],
    ['birthdays', ['Dates of birth']],
    ['security questions and answers', ['Security questions and answers']],
    ['usernames and physical addresses', ['Usernames', 'Physical addresses']],
    ['user names', ['Usernames']],
    ["driver's licenses", ["Driver's licenses"]],
    ['social security numbers', ['Social security numbers']],
    ['credit card numbers', ['Credit cards']],
    ['email messages', ['Email messages']],
  ])('recognises the data class in %j', (query, labels) => {
    const { parts, remaining } = understand(query);
    expect(brief(parts)).toEqual(labels);
    expect(remaining).toBe('');
  });

  it('names a class as the caller spells it when the caller knows it', () => {
    expect(brief(understand('passwords', { dataClasses: ['passwords'] }).parts)).toEqual(['passwords']);
    expect(brief(understand('stolen widgets', { dataClasses: ['Stolen widgets'] }).parts)).toEqual(['Stolen widgets']);
  });

  it.each([
    ['after 2020', 'After 2020 2021-01-01..'],
    ['since 2019', 'Since 2019 2019-01-01..'],
    ['from 2019 onwards', 'Since 2019 2019-01-01..'],
    ['breaches from 2019', 'In 2019 2019-01-01..2019-12-31'],
    ['before 2015', 'Before 2015 ..2014-12-31'],
    ['prior to 2015', 'Before 2015 ..2014-12-31'],
    ['until 2015', 'Until 2015 ..2015-12-31'],
    ['in 2019', 'In 2019 2019-01-01..2019-12-31'],
    ['during 2019', 'In 2019 2019-01-01..2019-12-31'],
    ['2019', 'In 2019 2019-01-01..2019-12-31'],
    ['in May 2019', 'In May 2019 2019-05-01..2019-05-31'],
    ['after feb 2020', 'After February 2020 2020-03-01..'],
    ['before March 2016', 'Before March 2016 ..2016-02-29'],
    ['between 2018 and 2020', '2018 to 2020 2018-01-01..2020-12-31'],
    ['from 2018 to 2020', '2018 to 2020 2018-01-01..2020-12-31'],
    ['2018-2020', '2018 to 2020 2018-01-01..2020-12-31'],
    ['in 2019 and 2020', '2019 to 2020 2019-01-01..2020-12-31'],
  ])('reads the date phrase %j', (query, expected) => {
    const { parts, remaining } = understand(query);
    expect(brief(parts)).toEqual([expected]);
    expect(remaining).toBe('');
  });

  it('reads relative dates against the clock it is given', () => {
    expect(brief(understand('last year').parts)).toEqual(['Last year (2025) 2025-01-01..2025-12-31']);
    expect(brief(understand('this year').parts)).toEqual(['This year (2026) 2026-01-01..']);
    expect(brief(understand('in the last 3 years').parts)).toEqual(['Last 3 years 2023-11-26..']);
    expect(brief(understand('past two months').parts)).toEqual(['Last 2 months 2026-09-26..']);
    expect(brief(understand('past year').parts)).toEqual(['Past 12 months 2025-11-26..']);
    const newYear = Date.parse('2020-01-01T00:00:00Z');
    expect(brief(understandQuery('last year', { now: newYear }).parts)).toEqual(['Last year (2019) 2019-01-01..2019-12-31']);
    expect(brief(understandQuery('this year', { now: new Date(newYear) }).parts)).toEqual(['This year (2020) 2020-01-01..']);
  });

  it('leaves what is not a date as words, and reads a range either way round', () => {
    expect(understand('after the games').parts).toEqual([]);
    expect(understand('after the games').remaining).toBe('games');
    expect(brief(understand('between 2020 and 2018').parts)).toEqual(['2018 to 2020 2018-01-01..2020-12-31']);
    expect(brief(understand('2020-2018').parts)).toEqual(['2018 to 2020 2018-01-01..2020-12-31']);
    expect(understand('3000 users').parts).toEqual([]);
  });

  it('reads "sensitive", "not sensitive" and "verified"', () => {
    expect(brief(understand('sensitive dating sites').parts)).toEqual(['Sensitive only']);
    expect(understand('sensitive dating sites').remaining).toBe('dating');
    expect(brief(understand('non-sensitive breaches').parts)).toEqual(['Not sensitive']);
    expect(brief(understand('not sensitive').parts)).toEqual(['Not sensitive']);
    expect(brief(understand('verified breaches with passwords').parts)).toEqual(['Verified only', 'Passwords']);
  });

  it('reads domains, without www, and not file names', () => {
    expect(brief(understand('what did adobe.com leak?').parts)).toEqual(['adobe.com']);
    expect(brief(understand('www.LinkedIn.com').parts)).toEqual(['linkedin.com']);
    expect(understand('a node.js forum').parts).toEqual([]);
    expect(understand('a node.js forum').remaining).toBe('node.js forum');
  });

  it('reads a negated class as unwanted, and leaves a negated date as words', () => {
    expect(brief(understand('breaches without passwords').parts)).toEqual(['Without Passwords']);
    expect(understand('breaches without passwords').remaining).toBe('');
    expect(brief(understand("breaches that didn't leak phone numbers").parts)).toEqual(['Without Phone numbers']);
    expect(understand('not 2019').parts).toEqual([]);
    expect(understand('not 2019').remaining).toBe('not 2019');
  });

  it.each([
    ['unverified breaches', ['Unverified']],
    ['not verified', ['Unverified']],
    ['fake breaches', ['Fabricated']],
    ['spam lists', ['Spam list']],
    ['breaches that are not malware', ['Not malware']],
    ['stealer logs', ['Stealer log']],
    ['retired breaches', ['Retired']],
    ['the biggest breach', ['The largest']],
    ['the 5 largest breaches', ['5 largest']],
    ['top 3 breaches by size', ['3 largest']],
    ['the largest breaches', ['Largest first']],
    ['the latest breach', ['The latest']],
    ['breaches with over 1 million accounts', ['Over 1,000,000 accounts']],
    ['fewer than 1,000 users', ['Under 1,000 accounts']],
    ['how many breaches', ['How many']],
    ["breaches I haven't fixed yet", ['Not fixed']],
    ['partly fixed breaches', ['Partly fixed']],
    ['new breaches since last sync', ['New since last sync']],
    ['breaches for alex@example.com', ['alex@example.com']],
    ['credit cards', ['Credit cards']],
    ['passowrds', ['Passwords']],
    ['bigest breach', ['The largest']],
    ['largest 3 breaches', ['3 largest']],
    ['breaches bigger than 1 million', ['Over 1,000,000 accounts']],
    ['breaches I still need to fix', ['Not fixed']],
  ])('reads %j', (query, labels) => {
    expect(brief(understand(query).parts)).toEqual(labels);
  });

  it('lets "credit cards" reach the partial card classes, and names breaches by title', () => {
    const [cards] = understand('credit cards').parts;
    expect(cards?.kind === 'dataClass' && cards.reaches).toEqual(['Credit cards', 'Partial credit card data', 'Credit card CVV']);
    const names = [
      { id: 'LinkedIn', title: 'LinkedIn' },
      { id: 'LinkedInScrape', title: 'LinkedIn Scraped Data' },
    ];
    const [named] = understand('what happened with linkedin', { names }).parts;
    expect(named?.kind === 'name' && named.breachIds).toEqual(['LinkedIn', 'LinkedInScrape']);
    expect(understand('after the games').parts).toEqual([]);
  });

  it('gives no chip for a dismissed part and ignores its words', () => {
    const { parts, remaining } = understand('adobe passwords after 2020', { dismissed: ['dataClass:passwords'] });
    expect(brief(parts)).toEqual(['After 2020 2021-01-01..']);
    expect(remaining).toBe('adobe');
    const dates = understand('adobe passwords after 2020', { dismissed: ['dates:after 2020'] });
    expect(brief(dates.parts)).toEqual(['Passwords']);
    expect(dates.remaining).toBe('adobe');
  });

  it('recognises only the kinds asked for', () => {
    const { parts, remaining } = understand('sensitive passwords adobe.com 2019', { kinds: ['dataClass', 'domain'] });
    expect(brief(parts)).toEqual(['Passwords', 'adobe.com']);
    expect(remaining).toBe('sensitive 2019');
  });

  it('reads words that meet once others are gone, and gives each part once', () => {
    expect(brief(understand('email after 2020 addresses').parts)).toEqual(['Email addresses', 'After 2020 2021-01-01..']);
    expect(brief(understand('passwords and password hashes').parts)).toEqual(['Passwords']);
    expect(understand('security the questions').parts.map((part) => part.label)).toEqual(['Security questions and answers']);
  });
});

// ---- Properties ---------------------------------------------------------------------------

const PHRASES = [
  'passwords',
  'password hashes',
  'phone numbers',
  'emails',
  'ip addresses',
  'dates of birth',
  'security questions and answers',
  'after 2020',
  'since 2019',
  'before 2015',
  'in 2019',
  'between 2018 and 2020',
  'last year',
  'this year',
  'may 2019',
  'sensitive',
  'not sensitive',
  'verified',
  'adobe.com',
  'www.linkedin.com',
  'unverified',
  'not verified',
  'without passwords',
  "didn't leak phone numbers",
  'fake',
  'spam list',
  'malware',
  'stealer logs',
  'the biggest',
  '5 largest',
  'top 3',
  'most recent',
  'over 1 million accounts',
  'fewer than 1,000 users',
  'how many',
  "haven't fixed",
  'partly fixed',
  'new',
  'alex@example.com',
  'credit cards',
  'passowrds',
  'not 2019',
];
const FILLERS = [
  'which',
  'of',
  'my',
  'breaches',
  'breach',
  'not',
  'without',
  'no',
  'leaked',
  'the',
  'and',
  'games',
  'forum',
  'dating',
  'adobe',
  'crypto',
  '?',
  ',',
  '2',
  'numbers',
  'year',
  'security',
  'after',
  'in',
];
const questionArb = fc.array(fc.oneof(fc.constantFrom(...PHRASES), fc.constantFrom(...FILLERS), fc.string({ maxLength: 8 })), { maxLength: 14 }).map((words) => words.join(' '));
const anyText = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }), questionArb);
const tokens = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu) ?? [];

function isSubsequence(part: readonly string[], whole: readonly string[]): boolean {
  let i = 0;
  for (const word of whole) if (i < part.length && part[i] === word) i++;
  return i === part.length;
}

describe('understandQuery properties', () => {
  it('never throws, and answers parts with keys and labels and a remaining text of single-spaced words', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 }), (query, now) => {
        const { parts, remaining } = understandQuery(query, { now });
        expect(new Set(parts.map((part) => part.key)).size).toBe(parts.length);
        for (const part of parts) expect(part.label.length).toBeGreaterThan(0);
        expect(remaining).toBe(remaining.trim());
        expect(remaining).not.toMatch(/\s\s/);
      }),
      { numRuns: 500 },
    );
  });

  it('only removes words: what is left is the question’s words in their order', () => {
    fc.assert(
      fc.property(anyText, (query) => {
        expect(isSubsequence(tokens(understand(query).remaining), tokens(query))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('removes what it recognised from the text (questions without negations)', () => {
    fc.assert(
      fc.property(questionArb, (query) => {
        // A negation of what has no opposite ("without 5 largest") leaves its words as words.
        fc.pre(!/(^|\s)(not|no|without|didn't|haven't)(\s|$)/.test(query));
        const { parts, remaining } = understand(query);
        for (const part of parts) expect(` ${remaining} `).not.toContain(` ${part.text} `);
      }),
      { numRuns: 500 },
    );
  });

  it('is idempotent on its own output: the remaining text holds nothing more to recognise', () => {
    fc.assert(
      fc.property(anyText, fc.subarray(['dataClass:passwords', 'dates:after 2020', 'sensitive:only', 'domain:adobe.com']), (query, dismissed) => {
        const once = understand(query, { dismissed });
        const twice = understand(once.remaining, { dismissed });
        expect(twice.parts).toEqual([]);
        expect(twice.remaining).toBe(once.remaining);
      }),
      { numRuns: 500 },
    );
  });
});
