/**
 * The question set by dimension (issue 36): questions generated from what a breach has — every
 * data class, every flag, dates, domains and names, size, the person's own state, negations,
 * counts, and mixes of them — each with its answer COMPUTED here from the fixture catalog
 * (../shared/fixtures/hibp/breaches.json, every record, its details included) and a fixture
 * account, never typed by hand. Each question is tagged with its dimension and its form: `core`
 * (the plain way to say it), `paraphrase` (everyday words for the same), `typo` (one letter
 * swapped or dropped) or `mixed` (several dimensions at once).
 *
 * The answers are computed by a plain model of the meaning (a breach "exposed passwords" when its
 * data classes list Passwords; "after 2020" is a breach date from 2021-01-01; "the 5 largest" are
 * the five highest account counts, largest first), written apart from the understanding under
 * test. Questions whose meaning includes an order (size, latest) are compared in order, and
 * aggregate questions carry the answer sentence they must get, formatted here from the same data.
 *
 * Run by test/search/questionSet.test.ts (with floors) and `npm run eval:search` (per dimension).
 */
import path from 'node:path';
import { loadHibpCatalog } from '../../server/catalog/hibp.ts';
import type { BreachDetails } from '../../shared/catalog/details.ts';

export const HIBP_FILE = path.resolve(import.meta.dirname, '../../../shared/fixtures/hibp/breaches.json');

/** "Now" for relative phrases ("last year"). */
export const SET_NOW = Date.parse('2025-06-01T00:00:00Z');

export type Dimension = 'dataClass' | 'flag' | 'date' | 'domainOrName' | 'size' | 'state' | 'negation' | 'count' | 'mixed';
export const DIMENSIONS: readonly Dimension[] = ['dataClass', 'flag', 'date', 'domainOrName', 'size', 'state', 'negation', 'count', 'mixed'];
export type Form = 'core' | 'paraphrase' | 'typo' | 'mixed';

export interface SetQuestion {
  question: string;
  dimension: Dimension;
  form: Form;
  /** Breach ids answering it. */
  expected: string[];
  /** The order matters (size and recency questions): `expected` is in the order asked. */
  ordered: boolean;
  /** The answer sentence an aggregate question must get before its list. */
  sentence?: string;
}

/** One breach of the fixture account as the model reads it: the catalog's details plus the person's state. */
export interface FixtureBreach extends BreachDetails {
  id: string;
  breachDay: string;
  /** The person's addresses found in it. */
  emails: string[];
  /** All its data classes resolved for every address, some of them, or none. */
  resolution: 'fixed' | 'partly' | 'unfixed';
  /** Brought by the last sync. */
  isNew: boolean;
}

export const FIXTURE_EMAILS = ['alex@example.com', 'sam@example.org'] as const;

/**
 * The fixture account: every record of the catalog file (retired, fabricated and spam-list ones
 * included, so every flag has breaches), the person's state spread over them by position: in
 * alex's breaches unless every third, in sam's unless every third other; fixed every fifth,
 * partly fixed the next, new since the last sync every 17th.
 */
export function fixtureAccount(): FixtureBreach[] {
  const { details } = loadHibpCatalog(HIBP_FILE);
  return Object.entries(details)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, record], i) => ({
      ...record,
      id,
      breachDay: record.breachDate,
      emails: FIXTURE_EMAILS.filter((_, which) => (which === 0 ? i % 3 !== 2 : i % 3 !== 0)),
      resolution: i % 5 === 0 ? 'fixed' : i % 5 === 1 ? 'partly' : 'unfixed',
      isNew: i % 17 === 0,
    }));
}

const byId = (a: FixtureBreach, b: FixtureBreach) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const ids = (breaches: readonly FixtureBreach[]) => breaches.map((breach) => breach.id);
/**
 * Near names: a class's own name also reaches its partial and detailed forms ("credit cards"
 * reaches "Partial credit card data" and "Credit card CVV"); the partial name reaches only itself.
 */
export const NEAR_NAMES: Readonly<Record<string, readonly string[]>> = {
  'Credit cards': ['Partial credit card data', 'Credit card CVV'],
  'Phone numbers': ['Partial phone numbers'],
  'Dates of birth': ['Partial dates of birth'],
};
/** Whether the breach exposed the class or one of its near names. */
const has = (breach: FixtureBreach, dataClass: string) => [dataClass, ...(NEAR_NAMES[dataClass] ?? [])].some((name) => breach.dataClasses.includes(name));
const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** Largest first; equal counts by id (the order the answer must give). */
const largestFirst = (a: FixtureBreach, b: FixtureBreach) => b.pwnCount - a.pwnCount || byId(a, b);
const smallestFirst = (a: FixtureBreach, b: FixtureBreach) => a.pwnCount - b.pwnCount || byId(a, b);
/** Latest breach date first, then latest added, then id. */
const latestFirst = (a: FixtureBreach, b: FixtureBreach) => b.breachDay.localeCompare(a.breachDay) || b.addedDate.localeCompare(a.addedDate) || byId(a, b);
const oldestFirst = (a: FixtureBreach, b: FixtureBreach) => -latestFirst(a, b);

/** Swaps two letters in the middle of a word: "passwords" → "passwrods". */
export function swapTypo(word: string): string {
  const at = Math.floor(word.length / 2);
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

/** The everyday names of data classes and the classes each reaches ("credit cards" reaches every card class). */
export const EVERYDAY_NAMES: readonly { words: string; classes: readonly string[] }[] = [
  { words: 'credit cards', classes: ['Credit cards', 'Partial credit card data', 'Credit card CVV'] },
  { words: 'card details', classes: ['Credit cards', 'Partial credit card data', 'Credit card CVV'] },
  { words: 'emails', classes: ['Email addresses'] },
  { words: 'phone', classes: ['Phone numbers', 'Partial phone numbers'] },
  { words: 'birthdays', classes: ['Dates of birth', 'Partial dates of birth'] },
  { words: 'home address', classes: ['Physical addresses'] },
  { words: 'ssn', classes: ['Social security numbers'] },
  { words: 'medical records', classes: ['Personal health data', 'Health insurance information', 'HIV statuses'] },
  { words: 'old passwords', classes: ['Historical passwords'] },
  { words: 'password hashes', classes: ['Passwords'] },
  { words: 'ip', classes: ['IP addresses'] },
  { words: 'bank details', classes: ['Bank account numbers'] },
  { words: 'salary', classes: ['Income levels'] },
  { words: 'location', classes: ['Geographic locations'] },
  { words: 'passport', classes: ['Passport numbers'] },
  { words: 'user names', classes: ['Usernames'] },
];

/** The whole set, generated from the fixture account. */
export function questionSet(account: readonly FixtureBreach[] = fixtureAccount()): SetQuestion[] {
  const all = [...account].sort(byId);
  const where = (test: (breach: FixtureBreach) => boolean) => all.filter(test);
  const questions: SetQuestion[] = [];
  const add = (dimension: Dimension, form: Form, question: string, expected: readonly FixtureBreach[], extra: Partial<Pick<SetQuestion, 'ordered' | 'sentence'>> = {}) =>
    questions.push({ question, dimension, form, expected: ids(expected), ordered: extra.ordered ?? false, ...(extra.sentence !== undefined ? { sentence: extra.sentence } : {}) });

  // ---- Data classes: every class the account's breaches name, by its own name (core), the
  // everyday names (paraphrase), and a few with a letter swapped (typo).
  const classes = [...new Set(all.flatMap((breach) => breach.dataClasses))].sort();
  for (const name of classes)
    add(
      'dataClass',
      'core',
      `breaches that exposed my ${name.toLowerCase()}`,
      where((b) => has(b, name)),
    );
  for (const { words, classes: reached } of EVERYDAY_NAMES)
    add(
      'dataClass',
      'paraphrase',
      `which breaches leaked my ${words}?`,
      where((b) => reached.some((name) => b.dataClasses.includes(name))),
    );
  add(
    'dataClass',
    'paraphrase',
    'show breaches with my phone number',
    where((b) => has(b, 'Phone numbers')),
  );
  add(
    'dataClass',
    'paraphrase',
    'was my date of birth leaked',
    where((b) => has(b, 'Dates of birth')),
  );
  for (const [words, name] of [
    ['passwords', 'Passwords'],
    ['usernames', 'Usernames'],
    ['genders', 'Genders'],
    ['employers', 'Employers'],
  ] as const)
    add(
      'dataClass',
      'typo',
      `breaches with my ${swapTypo(words)}`,
      where((b) => has(b, name)),
    );

  // ---- Flags: each, its opposite where it has one, in plain and everyday words.
  const flags = [
    ['verified breaches', (b: FixtureBreach) => b.isVerified],
    ['unverified breaches', (b: FixtureBreach) => !b.isVerified],
    ['sensitive breaches', (b: FixtureBreach) => b.isSensitive],
    ['fabricated breaches', (b: FixtureBreach) => b.isFabricated],
    ['spam list breaches', (b: FixtureBreach) => b.isSpamList],
    ['retired breaches', (b: FixtureBreach) => b.isRetired],
    ['malware breaches', (b: FixtureBreach) => b.isMalware],
    ['stealer log breaches', (b: FixtureBreach) => b.isStealerLog],
  ] as const;
  for (const [question, test] of flags) add('flag', 'core', question, where(test));
  add(
    'flag',
    'paraphrase',
    'which of my breaches are unconfirmed?',
    where((b) => !b.isVerified),
  );
  add(
    'flag',
    'paraphrase',
    'show me the fake breaches',
    where((b) => b.isFabricated),
  );
  add(
    'flag',
    'paraphrase',
    'spam lists',
    where((b) => b.isSpamList),
  );
  add(
    'flag',
    'paraphrase',
    'breaches from malware',
    where((b) => b.isMalware),
  );
  add(
    'flag',
    'paraphrase',
    'infostealer logs',
    where((b) => b.isStealerLog),
  );
  add(
    'flag',
    'paraphrase',
    'is any breach marked sensitive',
    where((b) => b.isSensitive),
  );
  add(
    'flag',
    'paraphrase',
    'confirmed breaches',
    where((b) => b.isVerified),
  );
  add(
    'flag',
    'paraphrase',
    "show me breaches that weren't verified",
    where((b) => !b.isVerified),
  );
  add(
    'flag',
    'typo',
    `${swapTypo('unverified')} breaches`,
    where((b) => !b.isVerified),
  );
  add(
    'flag',
    'typo',
    `${swapTypo('sensitive')} breaches`,
    where((b) => b.isSensitive),
  );
  add(
    'flag',
    'typo',
    `${swapTypo('fabricated')} breaches`,
    where((b) => b.isFabricated),
  );

  // ---- Dates: years, bounds, ranges, months, relative phrases, and the latest / oldest.
  const inRange = (from: string, until: string) => where((b) => b.breachDay >= from && b.breachDay <= until);
  add('date', 'core', 'breaches in 2019', inRange('2019-01-01', '2019-12-31'));
  add('date', 'core', 'breaches after 2020', inRange('2021-01-01', '9999-12-31'));
  add('date', 'core', 'breaches before 2012', inRange('0000-01-01', '2011-12-31'));
  add('date', 'core', 'breaches since 2023', inRange('2023-01-01', '9999-12-31'));
  add('date', 'core', 'breaches between 2015 and 2016', inRange('2015-01-01', '2016-12-31'));
  add('date', 'core', 'breaches in May 2019', inRange('2019-05-01', '2019-05-31'));
  add('date', 'paraphrase', 'what leaked last year', inRange('2024-01-01', '2024-12-31'));
  add('date', 'paraphrase', 'breaches from 2017 to 2018', inRange('2017-01-01', '2018-12-31'));
  add('date', 'paraphrase', 'anything from 2014', inRange('2014-01-01', '2014-12-31'));
  add('date', 'paraphrase', 'breaches 2010-2011', inRange('2010-01-01', '2011-12-31'));
  add('date', 'typo', 'breaches snice 2023', inRange('2023-01-01', '9999-12-31'));
  const latest = [...all].sort(latestFirst);
  const oldest = [...all].sort(oldestFirst);
  add('date', 'core', 'the latest breach', latest.slice(0, 1), { ordered: true, sentence: `${latest[0]!.title}, breached on ${latest[0]!.breachDay}` });
  add('date', 'core', 'the 3 most recent breaches', latest.slice(0, 3), { ordered: true });
  add('date', 'core', 'the oldest breach', oldest.slice(0, 1), { ordered: true, sentence: `${oldest[0]!.title}, breached on ${oldest[0]!.breachDay}` });
  add('date', 'paraphrase', 'what are my most recent breaches', latest, { ordered: true });
  add('date', 'paraphrase', 'my newest breach', latest.slice(0, 1), { ordered: true, sentence: `${latest[0]!.title}, breached on ${latest[0]!.breachDay}` });

  // ---- Domains and breach names: a spread of breaches with a domain and a title no other has.
  const titleCounts = new Map<string, number>();
  for (const b of all) titleCounts.set(b.title.toLowerCase(), (titleCounts.get(b.title.toLowerCase()) ?? 0) + 1);
  const domainCounts = new Map<string, number>();
  for (const b of all) if (b.domain) domainCounts.set(b.domain, (domainCounts.get(b.domain) ?? 0) + 1);
  const named = all.filter((b) => titleCounts.get(b.title.toLowerCase()) === 1 && /^[A-Za-z][A-Za-z0-9]{4,}$/.test(b.title) && b.domain && domainCounts.get(b.domain) === 1);
  const spread = (list: readonly FixtureBreach[], n: number) => Array.from({ length: n }, (_, k) => list[Math.floor((k * list.length) / n)]!);
  for (const b of spread(named, 8)) add('domainOrName', 'core', `breaches of ${b.domain}`, [b]);
  // A name reaches every breach whose title holds it ("LinkedIn" reaches "LinkedIn Scraped Data").
  const words = (title: string) =>
    ` ${
      title
        .toLowerCase()
        .match(/[a-z0-9]+/g)
        ?.join(' ') ?? ''
    } `;
  const titled = (b: FixtureBreach) => where((other) => words(other.title).includes(words(b.title)));
  for (const b of spread(named.slice(3), 8)) add('domainOrName', 'core', `what happened with ${b.title}?`, titled(b));
  for (const b of spread(named.slice(5), 3)) add('domainOrName', 'paraphrase', `was I in the ${b.title.toLowerCase()} breach`, titled(b));
  for (const b of spread(named.slice(7), 2)) add('domainOrName', 'paraphrase', `www.${b.domain}`, [b]);

  // ---- Size: largest, smallest, top N, over and under a number of accounts.
  const largest = [...all].sort(largestFirst);
  const smallest = [...all].sort(smallestFirst);
  const sizeSentence = (b: FixtureBreach) => `${b.title}, ${plural(b.pwnCount, 'account', 'accounts')}`;
  const topSentence = (list: readonly FixtureBreach[], what: string) => `The ${list.length} ${what}: ${list.map((b) => `${b.title} (${count(b.pwnCount)})`).join(', ')}`;
  add('size', 'core', 'the biggest breach', largest.slice(0, 1), { ordered: true, sentence: sizeSentence(largest[0]!) });
  add('size', 'core', 'the smallest breach', smallest.slice(0, 1), { ordered: true, sentence: sizeSentence(smallest[0]!) });
  add('size', 'core', 'the 5 largest breaches', largest.slice(0, 5), { ordered: true, sentence: topSentence(largest.slice(0, 5), 'largest') });
  add(
    'size',
    'core',
    'breaches with over 100 million accounts',
    where((b) => b.pwnCount > 100_000_000),
  );
  add(
    'size',
    'core',
    'breaches with fewer than 1000 accounts',
    where((b) => b.pwnCount < 1000),
  );
  add('size', 'paraphrase', 'which breach had the most accounts?', largest.slice(0, 1), { ordered: true, sentence: sizeSentence(largest[0]!) });
  add('size', 'paraphrase', 'top 3 breaches by size', largest.slice(0, 3), { ordered: true, sentence: topSentence(largest.slice(0, 3), 'largest') });
  add('size', 'paraphrase', 'the largest breach', largest.slice(0, 1), { ordered: true, sentence: sizeSentence(largest[0]!) });
  add(
    'size',
    'paraphrase',
    'breaches over 50,000,000 accounts',
    where((b) => b.pwnCount > 50_000_000),
  );
  add(
    'size',
    'paraphrase',
    'breaches with more than 10 million accounts',
    where((b) => b.pwnCount > 10_000_000),
  );
  add('size', 'paraphrase', 'the 2 smallest breaches', smallest.slice(0, 2), { ordered: true, sentence: topSentence(smallest.slice(0, 2), 'smallest') });
  add('size', 'paraphrase', 'largest 3 breaches', largest.slice(0, 3), { ordered: true, sentence: topSentence(largest.slice(0, 3), 'largest') });
  add(
    'size',
    'paraphrase',
    'breaches bigger than 1 million',
    where((b) => b.pwnCount > 1_000_000),
  );
  add('size', 'typo', 'the bigest breach', largest.slice(0, 1), { ordered: true, sentence: sizeSentence(largest[0]!) });
  add('size', 'typo', 'the 5 lagrest breaches', largest.slice(0, 5), { ordered: true, sentence: topSentence(largest.slice(0, 5), 'largest') });

  // ---- The person's state: fixed, not fixed, partly fixed, per address, new since the last sync.
  add(
    'state',
    'core',
    'breaches I have fixed',
    where((b) => b.resolution === 'fixed'),
  );
  add(
    'state',
    'core',
    "breaches I haven't fixed yet",
    where((b) => b.resolution !== 'fixed'),
  );
  add(
    'state',
    'core',
    'partly fixed breaches',
    where((b) => b.resolution === 'partly'),
  );
  add(
    'state',
    'core',
    `breaches for ${FIXTURE_EMAILS[0]}`,
    where((b) => b.emails.includes(FIXTURE_EMAILS[0])),
  );
  add(
    'state',
    'core',
    'new breaches since last sync',
    where((b) => b.isNew),
  );
  add(
    'state',
    'paraphrase',
    'what is still unresolved',
    where((b) => b.resolution !== 'fixed'),
  );
  add(
    'state',
    'paraphrase',
    'which breaches are resolved',
    where((b) => b.resolution === 'fixed'),
  );
  add(
    'state',
    'paraphrase',
    `breaches that found ${FIXTURE_EMAILS[1]}`,
    where((b) => b.emails.includes(FIXTURE_EMAILS[1])),
  );
  add(
    'state',
    'paraphrase',
    'new breaches',
    where((b) => b.isNew),
  );
  add(
    'state',
    'paraphrase',
    'breaches not fixed',
    where((b) => b.resolution !== 'fixed'),
  );
  add(
    'state',
    'paraphrase',
    'half fixed breaches',
    where((b) => b.resolution === 'partly'),
  );
  add(
    'state',
    'paraphrase',
    'breaches I still need to fix',
    where((b) => b.resolution !== 'fixed'),
  );
  add(
    'state',
    'typo',
    'breaches I havent fixed',
    where((b) => b.resolution !== 'fixed'),
  );

  // ---- Negations.
  add(
    'negation',
    'core',
    'breaches without passwords',
    where((b) => !has(b, 'Passwords')),
  );
  add(
    'negation',
    'core',
    'not verified breaches',
    where((b) => !b.isVerified),
  );
  add(
    'negation',
    'core',
    'breaches without phone numbers',
    where((b) => !has(b, 'Phone numbers')),
  );
  add(
    'negation',
    'core',
    'breaches that are not sensitive',
    where((b) => !b.isSensitive),
  );
  add(
    'negation',
    'core',
    'breaches without email addresses',
    where((b) => !has(b, 'Email addresses')),
  );
  add(
    'negation',
    'paraphrase',
    "breaches that didn't leak passwords",
    where((b) => !has(b, 'Passwords')),
  );
  add(
    'negation',
    'paraphrase',
    'breaches with no dates of birth',
    where((b) => !has(b, 'Dates of birth')),
  );
  add(
    'negation',
    'paraphrase',
    'non-sensitive breaches',
    where((b) => !b.isSensitive),
  );
  add(
    'negation',
    'paraphrase',
    'breaches that are not malware',
    where((b) => !b.isMalware),
  );
  add(
    'negation',
    'paraphrase',
    'breaches that leaked passwords but not phone numbers',
    where((b) => has(b, 'Passwords') && !b.dataClasses.includes('Phone numbers')),
  );
  add(
    'negation',
    'typo',
    `breaches without ${swapTypo('passwords')}`,
    where((b) => !has(b, 'Passwords')),
  );

  // ---- Counts: the answer sentence says how many, the list is the same breaches.
  const howMany = (question: string, form: Form, list: readonly FixtureBreach[], what: string) =>
    add('count', form, question, list, { sentence: `${plural(list.length, 'breach', 'breaches')} ${what}` });
  howMany(
    'how many breaches exposed my phone numbers?',
    'core',
    where((b) => has(b, 'Phone numbers')),
    'exposed your phone numbers',
  );
  howMany(
    'how many breaches leaked my passwords?',
    'core',
    where((b) => has(b, 'Passwords')),
    'exposed your passwords',
  );
  howMany(
    'how many unverified breaches?',
    'core',
    where((b) => !b.isVerified),
    'match',
  );
  howMany('how many breaches in 2019?', 'core', inRange('2019-01-01', '2019-12-31'), 'match');
  howMany(
    'how many breaches have I not fixed?',
    'core',
    where((b) => b.resolution !== 'fixed'),
    'match',
  );
  howMany(
    'number of breaches with my email addresses',
    'paraphrase',
    where((b) => has(b, 'Email addresses')),
    'exposed your email addresses',
  );
  howMany(
    'count the sensitive breaches',
    'paraphrase',
    where((b) => b.isSensitive),
    'match',
  );
  howMany(
    'in how many breaches was my ip leaked',
    'paraphrase',
    where((b) => has(b, 'IP addresses')),
    'exposed your IP addresses',
  );
  howMany(
    'how many of my breaches are unresolved',
    'paraphrase',
    where((b) => b.resolution !== 'fixed'),
    'match',
  );
  howMany(
    `how many breaches leaked my ${swapTypo('passwords')}?`,
    'typo',
    where((b) => has(b, 'Passwords')),
    'exposed your passwords',
  );

  // ---- Mixed: several dimensions in one question.
  const since2019 = (b: FixtureBreach) => b.breachDay >= '2019-01-01';
  add(
    'mixed',
    'mixed',
    'unverified breaches since 2019 with passwords',
    where((b) => !b.isVerified && since2019(b) && has(b, 'Passwords')),
  );
  const bigPasswords = largest.filter((b) => has(b, 'Passwords')).slice(0, 3);
  add('mixed', 'mixed', 'the 3 biggest breaches with passwords', bigPasswords, { ordered: true, sentence: topSentence(bigPasswords, 'largest') });
  const unfixedEmails = where((b) => b.resolution !== 'fixed' && has(b, 'Email addresses'));
  add('mixed', 'mixed', 'how many unfixed breaches leaked email addresses?', unfixedEmails, { sentence: `${plural(unfixedEmails.length, 'breach', 'breaches')} exposed your email addresses` });
  add(
    'mixed',
    'mixed',
    'verified breaches without passwords before 2012',
    where((b) => b.isVerified && !has(b, 'Passwords') && b.breachDay < '2012-01-01'),
  );
  const bigUnverified = largest.filter((b) => !b.isVerified);
  add('mixed', 'mixed', 'the largest unverified breach', bigUnverified.slice(0, 1), { ordered: true, sentence: sizeSentence(bigUnverified[0]!) });
  add(
    'mixed',
    'mixed',
    'sensitive breaches after 2018 I have not fixed',
    where((b) => b.isSensitive && b.breachDay >= '2019-01-01' && b.resolution !== 'fixed'),
  );
  add(
    'mixed',
    'mixed',
    `phone numbers leaked for ${FIXTURE_EMAILS[1]}`,
    where((b) => b.emails.includes(FIXTURE_EMAILS[1]) && has(b, 'Phone numbers')),
  );
  add(
    'mixed',
    'mixed',
    'credit cards in 2016',
    where((b) => b.breachDay.startsWith('2016') && has(b, 'Credit cards')),
  );
  const latestPasswords = latest.filter((b) => has(b, 'Passwords'));
  add('mixed', 'mixed', 'the latest breach with passwords', latestPasswords.slice(0, 1), {
    ordered: true,
    sentence: `${latestPasswords[0]!.title}, breached on ${latestPasswords[0]!.breachDay}`,
  });
  add(
    'mixed',
    'mixed',
    'new breaches with passwords',
    where((b) => b.isNew && has(b, 'Passwords')),
  );
  add(
    'mixed',
    'mixed',
    'breaches over 1 million accounts without passwords',
    where((b) => b.pwnCount > 1_000_000 && !has(b, 'Passwords')),
  );
  add(
    'mixed',
    'mixed',
    'malware breaches since 2020',
    where((b) => b.isMalware && b.breachDay >= '2020-01-01'),
  );
  return questions;
}
