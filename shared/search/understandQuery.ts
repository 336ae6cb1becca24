import { KNOWN_DATA_CLASSES } from '../api/dataClassNames.ts';
import { dataClassKey } from '../api/primitives.ts';

/**
 * Query understanding: what a question says that a filter can say better than ranking can.
 * "which of my breaches leaked passwords after 2020?" is a data class (Passwords) and a date
 * range (from 2021-01-01), not five words to rank: ranked as text, "passwords" (in most breach
 * descriptions) scores next to nothing and "2020" picks whichever description names the year.
 *
 * Recognised: data classes (Have I Been Pwned's names, their singulars and common synonyms),
 * dates ("after 2020", "since 2019", "before 2015", "in May 2019", "between 2018 and 2020",
 * "2018-2020", "last year", "this year", "the last 3 years"; relative ones against `now`),
 * "sensitive" / "not sensitive", "verified" and domains ("adobe.com"). Each becomes a
 * {@link QueryPart} the UI shows as a removable chip; what is left, without the words every
 * question is made of ("which of my breaches leaked"), is the text to rank.
 *
 * Pure and platform-free: the Search page, the breaches list's text box and the evaluation in
 * `test/search` run the same function.
 */

interface PartBase {
  /** Stable for as long as the question says it: a dismissed chip is remembered by this. */
  key: string;
  /** What the chip says ("Passwords", "After 2020"). */
  label: string;
  /** The words of the question it came from, lower case ("after 2020"). */
  text: string;
}
/** The catalog's flags a question can name besides sensitive and verified (each a filter field). */
export type BreachFlag = 'isFabricated' | 'isSpamList' | 'isRetired' | 'isMalware' | 'isStealerLog';
/** The person's own state of a breach: all fixed, not all fixed, some fixed and some not, brought by the last sync. */
export type BreachState = 'fixed' | 'unfixed' | 'partly' | 'new';
/** What a question orders by ("the biggest": accounts; "the latest": breach date). */
export interface QueryOrder {
  by: 'pwnCount' | 'breachDate';
  direction: 'desc' | 'asc';
}
export type QueryPart =
  /**
   * `dataClass` is the class named; `reaches` every class it stands for (the class and its near
   * names: "credit cards" reaches "Partial credit card data" and "Credit card CVV"). Negated
   * ("without passwords"): the breaches exposing none of them.
   */
  | (PartBase & { kind: 'dataClass'; dataClass: string; reaches: string[]; negated?: true })
  /** Inclusive `YYYY-MM-DD` bounds (UTC days); at least one is set. */
  | (PartBase & { kind: 'dates'; from?: string; until?: string })
  | (PartBase & { kind: 'sensitive'; sensitive: boolean })
  | (PartBase & { kind: 'verified'; verified: boolean })
  | (PartBase & { kind: 'flag'; flag: BreachFlag; value: boolean })
  | (PartBase & { kind: 'domain'; domain: string })
  /** Breaches named by title ("what happened with Adobe"): every breach whose title holds the words. */
  | (PartBase & { kind: 'name'; breachIds: string[] })
  /** Account counts, exclusive bounds ("over 1 million accounts": min 1,000,000). */
  | (PartBase & { kind: 'accounts'; min?: number; max?: number })
  /** An order, and how many to keep ("the 5 largest": 5; "the biggest breach": 1; "the largest breaches": all). */
  | (PartBase & { kind: 'order'; order: QueryOrder; limit?: number })
  /** "how many": the answer is a count. */
  | (PartBase & { kind: 'count' })
  | (PartBase & { kind: 'state'; state: BreachState })
  /** One of the person's addresses ("breaches for alex@example.com"). */
  | (PartBase & { kind: 'email'; email: string });
export type QueryPartKind = QueryPart['kind'];

export interface UnderstoodQuery {
  /** In the order the question says them, each key once. */
  parts: QueryPart[];
  /** The words left to rank, lower case, separated by single spaces ('' when nothing is left). */
  remaining: string;
}

export interface UnderstandOptions {
  /** "Now" for relative phrases ("last year"); the current time by default. */
  now?: Date | number;
  /**
   * Data class names to recognise besides Have I Been Pwned's, spelled as the caller's data
   * spells them (a chip names the class in that spelling when the two name the same class).
   */
  dataClasses?: readonly string[];
  /** Keys of parts the person removed: no chip comes back for them, and their words are ignored. */
  dismissed?: Iterable<string>;
  /** The kinds to recognise (all by default): the breaches list has no sensitive or verified words. */
  kinds?: readonly QueryPartKind[];
  /** Breaches a question may name by title (the engines pass theirs; without them titles stay words). */
  names?: readonly { id: string; title: string }[];
}

/**
 * An email address, or a run of letters and digits joined by an apostrophe, dot, hyphen or
 * thousands comma ("alex@example.com", "driver's", "adobe.com", "2018-2020", "50,000,000").
 */
const TOKEN = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+|\d{1,3}(?:,\d{3})+|[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

/**
 * Words every question is made of, which name no breach. Negations ("no", "not", "without")
 * are kept: "without passwords" must not turn into a Passwords chip, and keeping the word keeps
 * the understanding the same when it runs again on its own output.
 */
const QUESTION_WORDS = new Set(
  [
    'a an the and or but also only just ever even any all some every each other others',
    'i me my mine we us our ours you your yours they them their he she his her it its this that these those there here',
    'which what when where who whom whose why how whether if',
    'is are was were be been being am do does did done have has had having can could would should will shall may might must',
    'of in on at to for from with by about into onto over under as than then so such per via',
    'after before since until till between during prior post pre last past previous current',
    'show list find give tell get got gets getting search look see know let lets want need please happen happens happened happening',
    'one ones thing things something anything everything lot lots many much more most',
    'breach breaches breached leak leaks leaked leaking hack hacks hacked hacker hackers hacking',
    'expose exposes exposed exposing include includes included including contain contains contained containing',
    'compromise compromises compromised compromising steal steals stole stolen lose lost dump dumps dumped',
    'incident incidents data info information details record records',
    'account accounts user users site sites website websites service services company companies',
    'sync synced syncing marked yet still found appear appears appeared involved involving affected affecting',
  ]
    .join(' ')
    .split(' '),
);
const NEGATIONS = new Set([
  'no',
  'not',
  'without',
  'except',
  'excluding',
  'never',
  'non',
  "didn't",
  'didnt',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "haven't",
  'havent',
  "hasn't",
  'hasnt',
  "isn't",
  'isnt',
  "aren't",
  'arent',
  "wasn't",
  'wasnt',
  "weren't",
  'werent',
]);
/** Words between a negation and what it negates: "didn't leak passwords", "with no dates of birth". */
const NEGATION_FILLERS = new Set(['leak', 'include', 'have', 'has', 'any', 'my', 'a', 'the', 'expose', 'contain', 'yet', 'been', 'be', 'i', 'you', 'it', 'get', 'from', 'marked']);

/**
 * Synonyms, by Have I Been Pwned name. Names, their singular and plural forms need no entry:
 * they are derived. Ambiguous words ("addresses", "numbers") are left out on purpose.
 */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  Passwords: [
    'password hash',
    'password hashes',
    'hashed password',
    'hashed passwords',
    'passwd',
    'passwds',
    'pwd',
    'pwds',
    'credentials',
    'login credentials',
    'plaintext passwords',
    'plain text passwords',
  ],
  'Email addresses': ['email', 'emails', 'e-mail', 'e-mails', 'e-mail address', 'e-mail addresses', 'mail address', 'mail addresses'],
  'Phone numbers': [
    'phone',
    'phones',
    'phone no',
    'phone nos',
    'telephone',
    'telephone number',
    'telephone numbers',
    'mobile number',
    'mobile numbers',
    'cell number',
    'cell numbers',
    'cellphone numbers',
  ],
  'IP addresses': ['ip', 'ips', 'ip address', 'ip addresses', 'ip-address', 'ip-addresses'],
  'Physical addresses': ['home address', 'home addresses', 'postal address', 'postal addresses', 'street address', 'street addresses', 'mailing address', 'mailing addresses'],
  'Dates of birth': ['dob', 'dobs', 'birthday', 'birthdays', 'birth date', 'birth dates', 'birthdate', 'birthdates', 'date of birth'],
  Usernames: ['user name', 'user names', 'login name', 'login names', 'screen name', 'screen names'],
  Names: ['real name', 'real names', 'full name', 'full names'],
  'Geographic locations': ['location', 'locations', 'geolocation', 'geolocations', 'geographic location'],
  'Credit cards': ['credit card', 'credit card number', 'credit card numbers', 'card number', 'card numbers', 'cards'],
  'Partial credit card data': ['partial card data', 'partial credit cards', 'partial card numbers'],
  'Social security numbers': ['ssn', 'ssns', 'social security number'],
  'Security questions and answers': ['security question', 'security questions', 'security answers', 'secret questions'],
  'Private messages': ['private message', 'direct messages', 'dms'],
  'Government issued IDs': ['government id', 'government ids', 'national id', 'national ids', 'id cards', 'id numbers'],
  'Passport numbers': ['passport', 'passports', 'passport number'],
  'Cryptocurrency wallet addresses': ['crypto wallet', 'crypto wallets', 'wallet address', 'wallet addresses', 'crypto wallet addresses', 'bitcoin addresses'],
  'Bank account numbers': ['bank account', 'bank accounts', 'bank account number', 'bank details'],
  'Auth tokens': ['auth token', 'access tokens', 'session tokens', 'api tokens'],
  'Historical passwords': ['old passwords', 'previous passwords', 'past passwords'],
  'Personal health data': ['health data', 'medical data', 'medical information', 'health information'],
  'Browser user agent details': ['user agent', 'user agents', 'browser details'],
  'Device information': ['device info', 'device details'],
  'Income levels': ['income', 'incomes', 'salary', 'salaries'],
  'Sexual orientations': ['sexual orientation', 'sexuality'],
  'Social media profiles': ['social profiles', 'social media accounts'],
  'Profile photos': ['profile photo', 'profile pictures', 'profile picture'],
  'SMS messages': ['sms', 'text messages'],
  'Chat logs': ['chat messages', 'chat histories', 'chat history'],
  'Job titles': ['job title'],
  'Website activity': ['browsing activity', 'site activity'],
  Purchases: ['purchase history', 'order history'],
};

/**
 * Near names: a class's name also reaches its partial and detailed forms (the person asking about
 * "credit cards" wants the breaches that leaked part of one or its CVV too). The partial names
 * themselves reach only themselves.
 */
const NEAR_NAMES: Readonly<Record<string, readonly string[]>> = {
  'Credit cards': ['Partial credit card data', 'Credit card CVV'],
  'Phone numbers': ['Partial phone numbers'],
  'Dates of birth': ['Partial dates of birth'],
};
/** Everyday names that stand for several classes at once. */
const FAMILIES: Readonly<Record<string, readonly string[]>> = {
  'medical records': ['Personal health data', 'Health insurance information', 'HIV statuses'],
  'health records': ['Personal health data', 'Health insurance information', 'HIV statuses'],
  'card details': ['Credit cards', 'Partial credit card data', 'Credit card CVV'],
  'card data': ['Credit cards', 'Partial credit card data', 'Credit card CVV'],
};

/** A plural's singular by the English rules these names follow ("addresses", "histories", "statuses"). */
function singular(word: string): string {
  if (word.length <= 3 || !word.endsWith('s') || word.endsWith('ss')) return word;
  if (word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (/(?:sses|shes|ches|xes|uses)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

const tokensOf = (text: string): string[] => text.toLowerCase().match(TOKEN) ?? [];

interface Vocabulary {
  /** Phrase (tokens joined by one space) → the data class it names. */
  phrases: Map<string, string>;
  /** Phrase → every class it reaches, when more than the class itself. */
  reaches: Map<string, string[]>;
  longest: number;
  /** Every word of every phrase: what a misspelt word may be corrected to. */
  words: Set<string>;
}

const vocabularies = new Map<string, Vocabulary>();
/** Have I Been Pwned's spelling of each class key. */
const KNOWN_SPELLING = new Map(KNOWN_DATA_CLASSES.map((name) => [dataClassKey(name), name]));

/**
 * The phrases naming each class: its name, the name with its first or last word singular
 * ("date of birth", "email address"), and the synonyms. A name the caller spells differently
 * from Have I Been Pwned (same {@link dataClassKey}) is chipped in the caller's spelling.
 */
function vocabularyOf(extra: readonly string[]): Vocabulary {
  const cacheKey = extra.join('\u0000');
  const cached = vocabularies.get(cacheKey);
  if (cached) return cached;
  const spelling = new Map<string, string>();
  for (const name of [...extra, ...KNOWN_DATA_CLASSES]) {
    const key = dataClassKey(name);
    if (key !== '' && !spelling.has(key)) spelling.set(key, name);
  }
  const phrases = new Map<string, string>();
  const add = (phrase: string, name: string) => {
    const tokens = tokensOf(phrase);
    if (tokens.length === 0) return;
    const joined = tokens.join(' ');
    // The first spelling of a phrase wins: a class's own name before another's synonym.
    if (!phrases.has(joined)) phrases.set(joined, name);
  };
  for (const name of spelling.values()) {
    const tokens = tokensOf(name);
    add(tokens.join(' '), name);
    add([...tokens.slice(0, -1), singular(tokens.at(-1) ?? '')].join(' '), name);
    add([singular(tokens[0] ?? ''), ...tokens.slice(1)].join(' '), name);
  }
  for (const [canonical, synonyms] of Object.entries(SYNONYMS)) {
    const name = spelling.get(dataClassKey(canonical)) ?? canonical;
    for (const synonym of synonyms) add(synonym, name);
  }
  // Words that are class names but mostly mean something else in a question.
  for (const word of ['name', 'age', 'race', 'pin', 'bio']) phrases.delete(word);
  const reaches = new Map<string, string[]>();
  const spelled = (name: string) => spelling.get(dataClassKey(name)) ?? name;
  for (const [phrase, name] of phrases) {
    const near = NEAR_NAMES[KNOWN_SPELLING.get(dataClassKey(name)) ?? name];
    if (near) reaches.set(phrase, [name, ...near.map(spelled)]);
  }
  for (const [phrase, family] of Object.entries(FAMILIES)) {
    const names = family.map(spelled);
    phrases.set(phrase, names[0]!);
    reaches.set(phrase, names);
  }
  let longest = 1;
  const words = new Set<string>();
  for (const phrase of phrases.keys()) {
    const split = phrase.split(' ');
    longest = Math.max(longest, split.length);
    for (const word of split) words.add(word);
  }
  const vocabulary = { phrases, reaches, longest, words };
  if (vocabularies.size > 16) vocabularies.clear();
  vocabularies.set(cacheKey, vocabulary);
  return vocabulary;
}

// ---- Dates -------------------------------------------------------------------------------

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_LABELS = MONTHS.map((month) => month[0]!.toUpperCase() + month.slice(1));
const MONTH_ABBREVIATIONS = new Map([...MONTHS.map((month, index) => [month.slice(0, 3), index] as const), ['sept', 8]]);
const monthOf = (word: string | undefined): number | undefined => {
  if (word === undefined) return undefined;
  const full = MONTHS.indexOf(word);
  return full >= 0 ? full : MONTH_ABBREVIATIONS.get(word);
};
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const countOf = (word: string | undefined): number | undefined => {
  if (word === undefined) return undefined;
  if (/^\d{1,3}$/.test(word)) return Number(word);
  const index = NUMBER_WORDS.indexOf(word);
  return index > 0 ? index : undefined;
};
const yearOf = (word: string | undefined): number | undefined => {
  if (word === undefined || !/^(19[7-9]\d|20\d\d)$/.test(word)) return undefined;
  return Number(word);
};

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (date: Date): string => `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
const dayAt = (year: number, month: number, day: number): Date => new Date(Date.UTC(year, month, day));

/** A year or a month of a year, as the first and last day it covers. */
interface Period {
  start: Date;
  end: Date;
  label: string;
  length: number;
}

/** The period at `tokens[i]`: "2019", "may 2019", "sep 2019". */
function periodAt(tokens: readonly string[], i: number): Period | undefined {
  const month = monthOf(tokens[i]);
  if (month !== undefined) {
    const year = yearOf(tokens[i + 1]);
    if (year === undefined) return undefined;
    return { start: dayAt(year, month, 1), end: dayAt(year, month + 1, 0), label: `${MONTH_LABELS[month]} ${year}`, length: 2 };
  }
  const year = yearOf(tokens[i]);
  if (year === undefined) return undefined;
  return { start: dayAt(year, 0, 1), end: dayAt(year, 11, 31), label: String(year), length: 1 };
}

const nextDay = (date: Date) => dayAt(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
const previousDay = (date: Date) => dayAt(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - 1);

interface DateMatch {
  length: number;
  label: string;
  from?: Date;
  until?: Date;
}

const AFTER = new Set(['after', 'post']);
const SINCE = new Set(['since']);
/** "from 2019 on": a start; "breaches from 2019" on its own means the year. */
const ONWARDS = new Set(['on', 'onward', 'onwards', 'forward']);
const BEFORE = new Set(['before', 'pre']);
const UNTIL = new Set(['until', 'till', 'through', 'thru']);
const IN = new Set(['in', 'during']);
const RANGE_JOINS = new Set(['and', 'to', 'until', 'through', 'thru', 'till']);

function dateAt(tokens: readonly string[], i: number, now: Date): DateMatch | undefined {
  const word = tokens[i]!;
  // "between 2018 and 2020", "from 2018 to 2020", "2018 to 2020", "2018-2020"
  const rangeStart = word === 'between' || word === 'from' || IN.has(word) ? i + 1 : i;
  const first = periodAt(tokens, rangeStart);
  if (first) {
    const join = rangeStart + first.length;
    const second = RANGE_JOINS.has(tokens[join] ?? '') ? periodAt(tokens, join + 1) : undefined;
    if (second) {
      // "between 2020 and 2018" means the same years as "between 2018 and 2020".
      const [early, late] = second.start < first.start ? [second, first] : [first, second];
      return { length: join + 1 + second.length - i, label: `${early.label} to ${late.label}`, from: early.start, until: late.end };
    }
  }
  const span = /^(19[7-9]\d|20\d\d)-(19[7-9]\d|20\d\d)$/.exec(word);
  if (span) {
    const [early, late] = [Number(span[1]), Number(span[2])].sort((a, b) => a - b) as [number, number];
    return { length: 1, label: `${early} to ${late}`, from: dayAt(early, 0, 1), until: dayAt(late, 11, 31) };
  }
  // "after 2020", "since 2019", "before 2015", "until 2015", "in 2019", "prior to 2015", "up to 2015"
  const two = `${word} ${tokens[i + 1] ?? ''}`;
  const lead = two === 'prior to' || two === 'up to' ? 2 : 1;
  const leadWord = lead === 2 ? two : word;
  const period = periodAt(tokens, i + lead);
  if (period) {
    const length = lead + period.length;
    if (leadWord === 'from' && ONWARDS.has(tokens[i + length] ?? '')) return { length: length + 1, label: `Since ${period.label}`, from: period.start };
    if (leadWord === 'from') return { length, label: `In ${period.label}`, from: period.start, until: period.end };
    if (AFTER.has(leadWord)) return { length, label: `After ${period.label}`, from: nextDay(period.end) };
    if (SINCE.has(leadWord)) return { length, label: `Since ${period.label}`, from: period.start };
    if (BEFORE.has(leadWord) || leadWord === 'prior to') return { length, label: `Before ${period.label}`, until: previousDay(period.start) };
    if (UNTIL.has(leadWord) || leadWord === 'up to') return { length, label: `Until ${period.label}`, until: period.end };
    if (IN.has(leadWord)) return { length, label: `In ${period.label}`, from: period.start, until: period.end };
  }
  // A year or month on its own: "adobe 2013", "may 2019".
  const alone = periodAt(tokens, i);
  if (alone) return { length: alone.length, label: `In ${alone.label}`, from: alone.start, until: alone.end };
  // Relative to now: "last year", "this year", "(the) last/past 3 years|months".
  const year = now.getUTCFullYear();
  const next = tokens[i + 1];
  if ((word === 'last' || word === 'previous') && next === 'year') return { length: 2, label: `Last year (${year - 1})`, from: dayAt(year - 1, 0, 1), until: dayAt(year - 1, 11, 31) };
  if ((word === 'this' || word === 'current') && next === 'year') return { length: 2, label: `This year (${year})`, from: dayAt(year, 0, 1) };
  if (word === 'past' && next === 'year') return { length: 2, label: 'Past 12 months', from: dayAt(year - 1, now.getUTCMonth(), now.getUTCDate()) };
  if (word === 'last' || word === 'past') {
    const count = countOf(next);
    const unit = tokens[i + 2];
    if (count !== undefined && count > 0 && count <= 100 && (unit === 'years' || unit === 'year' || unit === 'months' || unit === 'month')) {
      const months = unit.startsWith('year') ? count * 12 : count;
      const from = dayAt(year, now.getUTCMonth() - months, now.getUTCDate());
      return { length: 3, label: `Last ${count} ${unit.startsWith('year') ? (count === 1 ? 'year' : 'years') : count === 1 ? 'month' : 'months'}`, from };
    }
  }
  return undefined;
}

// ---- Domains -----------------------------------------------------------------------------

/** Host names with a top-level domain of letters; file names ("node.js", "dump.sql") are not domains. */
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,24}$/;
const NOT_DOMAINS = new Set(['js', 'ts', 'py', 'txt', 'pdf', 'exe', 'html', 'htm', 'php', 'json', 'csv', 'sql', 'zip', 'rar', 'xml', 'doc', 'docx', 'xls', 'xlsx', 'jpg', 'png', 'gif', 'md']);
function domainOf(token: string): string | undefined {
  if (token.length > 253 || !DOMAIN.test(token)) return undefined;
  const tld = token.slice(token.lastIndexOf('.') + 1);
  if (NOT_DOMAINS.has(tld)) return undefined;
  return token.startsWith('www.') && token.split('.').length > 2 ? token.slice(4) : token;
}

// ---- Flags, size, order, counts and the person's state ------------------------------------

/** Flag words, longest first where one starts another; `value` false for the words that say "not". */
const FLAG_PHRASES: readonly { words: string; make(text: string): QueryPart }[] = [
  ...(
    [
      ['stealer logs', 'isStealerLog', 'Stealer log'],
      ['stealer log', 'isStealerLog', 'Stealer log'],
      ['infostealer logs', 'isStealerLog', 'Stealer log'],
      ['infostealer log', 'isStealerLog', 'Stealer log'],
      ['infostealers', 'isStealerLog', 'Stealer log'],
      ['infostealer', 'isStealerLog', 'Stealer log'],
      ['stealer', 'isStealerLog', 'Stealer log'],
      ['spam lists', 'isSpamList', 'Spam list'],
      ['spam list', 'isSpamList', 'Spam list'],
      ['spamlists', 'isSpamList', 'Spam list'],
      ['spamlist', 'isSpamList', 'Spam list'],
      ['spam', 'isSpamList', 'Spam list'],
      ['fabricated', 'isFabricated', 'Fabricated'],
      ['fake', 'isFabricated', 'Fabricated'],
      ['faked', 'isFabricated', 'Fabricated'],
      ['retired', 'isRetired', 'Retired'],
      ['malware', 'isMalware', 'Malware'],
    ] as const
  ).map(([words, flag, label]) => ({ words, make: (text: string): QueryPart => ({ kind: 'flag', key: `flag:${flag}`, label, text, flag, value: true }) })),
  ...['verified', 'confirmed'].map((words) => ({ words, make: (text: string): QueryPart => ({ kind: 'verified', key: 'verified:only', label: 'Verified only', text, verified: true }) })),
  ...['unverified', 'unconfirmed', 'non-verified', 'nonverified'].map((words) => ({
    words,
    make: (text: string): QueryPart => ({ kind: 'verified', key: 'verified:not', label: 'Unverified', text, verified: false }),
  })),
  ...['sensitive'].map((words) => ({ words, make: (text: string): QueryPart => ({ kind: 'sensitive', key: 'sensitive:only', label: 'Sensitive only', text, sensitive: true }) })),
  ...['non-sensitive', 'nonsensitive', 'insensitive'].map((words) => ({
    words,
    make: (text: string): QueryPart => ({ kind: 'sensitive', key: 'sensitive:exclude', label: 'Not sensitive', text, sensitive: false }),
  })),
];

const STATE_LABELS: Record<BreachState, string> = { fixed: 'Fixed', unfixed: 'Not fixed', partly: 'Partly fixed', new: 'New since last sync' };
const statePart = (state: BreachState, text: string): QueryPart => ({ kind: 'state', key: `state:${state}`, label: STATE_LABELS[state], text, state });
const STATE_PHRASES: readonly { words: string; state: BreachState }[] = [
  ...['partly', 'partially', 'half', 'part'].flatMap((lead) => ['fixed', 'resolved'].map((end) => ({ words: `${lead} ${end}`, state: 'partly' as const }))),
  ...['partly-fixed', 'partially-fixed', 'half-fixed'].map((words) => ({ words, state: 'partly' as const })),
  ...['fixed', 'resolved', 'dealt with', 'handled'].map((words) => ({ words, state: 'fixed' as const })),
  ...['unfixed', 'unresolved', 'outstanding', 'to fix', 'need fixing', 'needs fixing', 'to be fixed', 'to resolve'].map((words) => ({ words, state: 'unfixed' as const })),
  ...['new', 'newly found', 'brand new'].map((words) => ({ words, state: 'new' as const })),
];

/** "the biggest" / "5 largest" / "most recent": the order, and whether "the biggest" means one. */
const SUPERLATIVES: readonly { words: string; order: QueryOrder; label: string }[] = [
  ...['biggest', 'largest', 'most accounts', 'most affected', 'most users', 'most people', 'worst', 'by size'].map((words) => ({
    words,
    order: { by: 'pwnCount' as const, direction: 'desc' as const },
    label: 'largest',
  })),
  ...['smallest', 'fewest accounts', 'least accounts', 'tiniest'].map((words) => ({ words, order: { by: 'pwnCount' as const, direction: 'asc' as const }, label: 'smallest' })),
  ...['latest', 'newest', 'most recent', 'recent', 'most recently'].map((words) => ({ words, order: { by: 'breachDate' as const, direction: 'desc' as const }, label: 'latest' })),
  ...['oldest', 'earliest', 'least recent'].map((words) => ({ words, order: { by: 'breachDate' as const, direction: 'asc' as const }, label: 'oldest' })),
];
const SUPERLATIVE_LEAD = new Set(SUPERLATIVES.map((entry) => entry.words.split(' ')[0]!));

const COUNT_PHRASES = ['how many', 'number of', 'count', 'count of', 'total number of', 'how much'];

/** The words that name what is counted in "over 1 million accounts". */
const ACCOUNT_UNITS = new Set(['accounts', 'account', 'users', 'people', 'records', 'members', 'customers', 'pwned', 'victims', 'entries', 'rows']);
const MORE = new Map([
  ['over', 'more'],
  ['above', 'more'],
  ['more than', 'more'],
  ['greater than', 'more'],
  ['bigger than', 'more'],
  ['at least', 'least'],
  ['under', 'less'],
  ['below', 'less'],
  ['fewer than', 'less'],
  ['less than', 'less'],
  ['smaller than', 'less'],
  ['at most', 'most'],
]);
const MULTIPLIERS = new Map([
  ['thousand', 1_000],
  ['k', 1_000],
  ['million', 1_000_000],
  ['millions', 1_000_000],
  ['m', 1_000_000],
  ['mil', 1_000_000],
  ['billion', 1_000_000_000],
  ['b', 1_000_000_000],
]);

/** A number of accounts at `tokens[i]`: "1000", "50,000,000", "1 million", "2.5m". */
function amountAt(tokens: readonly string[], i: number): { value: number; length: number } | undefined {
  const word = tokens[i];
  if (word === undefined) return undefined;
  const glued = /^(\d+(?:\.\d+)?)(k|m|b)$/.exec(word);
  if (glued) return { value: Math.round(Number(glued[1]) * MULTIPLIERS.get(glued[2]!)!), length: 1 };
  const plain = /^\d{1,3}(?:,\d{3})+$|^\d+(?:\.\d+)?$/.test(word) ? Number(word.replaceAll(',', '')) : countOf(word);
  if (plain === undefined || !Number.isFinite(plain)) return undefined;
  const multiplier = MULTIPLIERS.get(tokens[i + 1] ?? '');
  return multiplier ? { value: Math.round(plain * multiplier), length: 2 } : { value: plain, length: 1 };
}

const formatCount = (n: number) => n.toLocaleString('en-US');

/** "over 1 million accounts", "fewer than 1000 users", "at least 10k accounts". */
function accountsAt(tokens: readonly string[], i: number): Found | undefined {
  const two = `${tokens[i]} ${tokens[i + 1] ?? ''}`;
  const [lead, length] = MORE.has(two) ? [MORE.get(two)!, 2] : MORE.has(tokens[i]!) ? [MORE.get(tokens[i]!)!, 1] : [undefined, 0];
  if (lead === undefined) return undefined;
  const amount = amountAt(tokens, i + length);
  if (!amount) return undefined;
  const end = i + length + amount.length;
  // "over 1 million accounts"; "bigger than 1 million" says accounts too (a multiplier is no year).
  const unit = ACCOUNT_UNITS.has(tokens[end] ?? '') ? 1 : amount.length === 2 || /[kmb]$/.test(tokens[i + length]!) ? 0 : undefined;
  if (unit === undefined) return undefined;
  const text = tokens.slice(i, end + unit).join(' ');
  const n = amount.value;
  const part: QueryPart =
    lead === 'more'
      ? { kind: 'accounts', key: `accounts:>${n}`, label: `Over ${formatCount(n)} accounts`, text, min: n }
      : lead === 'least'
        ? { kind: 'accounts', key: `accounts:>${n - 1}`, label: `At least ${formatCount(n)} accounts`, text, min: n - 1 }
        : lead === 'less'
          ? { kind: 'accounts', key: `accounts:<${n}`, label: `Under ${formatCount(n)} accounts`, text, max: n }
          : { kind: 'accounts', key: `accounts:<${n + 1}`, label: `At most ${formatCount(n)} accounts`, text, max: n + 1 };
  return { part, length: end + unit - i };
}

const PLURAL_NOUNS = new Set(['breaches', 'leaks', 'hacks', 'ones', 'incidents']);

/** "the biggest breach" (1), "the 5 largest" (5), "top 3 … by size", "the largest breaches" (all, ordered). */
function orderAt(tokens: readonly string[], i: number): Found | undefined {
  let at = i;
  let limit: number | undefined;
  let top = false;
  if (tokens[at] === 'top') {
    top = true;
    at += 1;
  }
  const amount = amountAt(tokens, at);
  if (amount && amount.length === 1 && amount.value >= 1 && amount.value <= 1000) {
    limit = amount.value;
    at += 1;
  }
  const superlative = [...SUPERLATIVES].sort((a, b) => b.words.length - a.words.length).find((entry) => tokensOf(entry.words).every((word, k) => tokens[at + k] === word));
  if (!superlative && !(top && limit !== undefined)) return undefined;
  if (!superlative && top) {
    // "top 3 breaches by size", "top 5": the largest unless a later word says otherwise.
    const text = tokens.slice(i, at).join(' ');
    return { part: { kind: 'order', key: 'order:pwnCount:desc', label: `${limit} largest`, text, order: { by: 'pwnCount', direction: 'desc' }, limit }, length: at - i };
  }
  if (!superlative || (limit === undefined && i !== at && !top)) return undefined;
  let length = at - i + tokensOf(superlative.words).length;
  // "the largest 3 breaches": the number after the superlative.
  const after = limit === undefined ? amountAt(tokens, i + length) : undefined;
  // Only before a plural noun, which the part keeps, so it reads the same again.
  if (after && after.length === 1 && after.value >= 1 && after.value <= 1000 && PLURAL_NOUNS.has(tokens[i + length + 1] ?? '')) {
    limit = after.value;
    length += 2;
  }
  const text = tokens.slice(i, i + length).join(' ');
  if (limit === undefined) {
    // "the biggest breach" is one; "the largest breaches" every one, largest first.
    const after = tokens.slice(i + length, i + length + 4);
    const plural = after.some((word) => word === 'breaches' || word === 'ones' || word === 'leaks' || word === 'hacks');
    const singular = after.some((word) => word === 'breach' || word === 'one' || word === 'leak' || word === 'hack');
    if (!plural || singular) limit = 1;
  }
  const label = limit === undefined ? `${superlative.label[0]!.toUpperCase()}${superlative.label.slice(1)} first` : limit === 1 ? `The ${superlative.label}` : `${limit} ${superlative.label}`;
  return { part: { kind: 'order', key: `order:${superlative.order.by}:${superlative.order.direction}`, label, text, order: superlative.order, ...(limit !== undefined ? { limit } : {}) }, length };
}

const phraseAt = (tokens: readonly string[], i: number, words: string): number => {
  const wanted = tokensOf(words);
  return wanted.every((word, k) => tokens[i + k] === word) ? wanted.length : 0;
};

// ---- Misspellings ------------------------------------------------------------------------

/** Words a question uses to say what it asks, which a misspelling may be corrected to. */
const KEYWORDS = [
  ...FLAG_PHRASES.flatMap((entry) => tokensOf(entry.words)),
  ...STATE_PHRASES.flatMap((entry) => tokensOf(entry.words)),
  ...SUPERLATIVES.flatMap((entry) => tokensOf(entry.words)),
  'since',
  'after',
  'before',
  'between',
  'until',
  'without',
  'accounts',
  'breaches',
  'breach',
].filter((word) => word.length >= 5);

/** Whether two words are one edit apart (a letter swapped with its neighbour, dropped, added or changed). */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    // A letter changed in a short word is another word as often as a slip ("games", "names").
    if (a.length >= 6 && a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The word a misspelt word stands for: a keyword or a data class word one edit away, when exactly
 * one is (words of five letters or more, never a word the question vocabulary knows).
 */
function corrected(word: string, vocabulary: Vocabulary): string {
  if (word.length < 5 || !/^\p{L}+$/u.test(word) || vocabulary.words.has(word) || QUESTION_WORDS.has(word) || KEYWORDS.includes(word)) return word;
  const candidates = new Set<string>();
  for (const known of KEYWORDS) if (oneEditApart(word, known)) candidates.add(known);
  if (candidates.size === 0) for (const known of vocabulary.words) if (known.length >= 5 && oneEditApart(word, known)) candidates.add(known);
  return candidates.size === 1 ? [...candidates][0]! : word;
}

// ---- Breach names ------------------------------------------------------------------------

interface Names {
  /**
   * A title a question can say (its words joined by a space) → every breach whose title holds those
   * words in that order: "linkedin" names LinkedIn and LinkedIn Scraped Data, and a date in the
   * question picks between them.
   */
  titles: Map<string, { title: string; ids: string[] }>;
  longest: number;
}
const namesCache = new WeakMap<readonly { id: string; title: string }[], Names>();

/** The titles a question can name: at least four characters, not made only of question words, numbers or class words. */
function namesOf(list: readonly { id: string; title: string }[], vocabulary: Vocabulary): Names {
  const cached = namesCache.get(list);
  if (cached) return cached;
  const tokenized = list.map((entry) => ({ ...entry, joined: ` ${tokensOf(entry.title).join(' ')} ` }));
  const titles = new Map<string, { title: string; ids: string[] }>();
  for (const entry of tokenized) {
    const tokens = tokensOf(entry.title);
    const joined = tokens.join(' ');
    if (titles.has(joined) || joined.length < 4) continue;
    if (tokens.every((word) => QUESTION_WORDS.has(word) || NEGATIONS.has(word) || /^\d+$/.test(word) || vocabulary.words.has(word) || KEYWORDS.includes(word))) continue;
    const ids = tokenized.filter((other) => other.joined.includes(` ${joined} `)).map((other) => other.id);
    titles.set(joined, { title: entry.title, ids });
  }
  let longest = 1;
  for (const joined of titles.keys()) longest = Math.max(longest, joined.split(' ').length);
  const names = { titles, longest };
  namesCache.set(list, names);
  return names;
}

// ---- One pass and the fixed point --------------------------------------------------------

interface Context {
  now: Date;
  vocabulary: Vocabulary;
  names: Names | undefined;
  dismissed: ReadonlySet<string>;
  kinds: ReadonlySet<QueryPartKind>;
}

type Found = { part: QueryPart; length: number };
/** A negation of something that has no opposite ("not 2019"): its words stay words. */
type Unturnable = { part: undefined; length: number };

/** The part a negation at `tokens[i]` turns round ("without passwords", "not verified", "haven't fixed"), or undefined. */
function negatedAt(tokens: readonly string[], i: number, context: Context): Found | Unturnable | undefined {
  if (!NEGATIONS.has(tokens[i]!)) return undefined;
  let at = i + 1;
  // "non-sensitive" splits as one token; "non sensitive" as two.
  for (let skipped = 0; skipped <= 2 && at < tokens.length; skipped++) {
    const found = positiveAt(tokens, at, context);
    if (found) {
      const length = at + found.length - i;
      const text = tokens.slice(i, i + length).join(' ');
      const turned = turn(found.part, text);
      return turned ? { part: turned, length } : { part: undefined, length };
    }
    if (!NEGATION_FILLERS.has(tokens[at]!)) return undefined;
    at += 1;
  }
  return undefined;
}

/** A part said with "not": the opposite part, or undefined when it has none ("not 2019"). */
function turn(part: QueryPart, text: string): QueryPart | undefined {
  switch (part.kind) {
    case 'dataClass':
      return part.negated ? undefined : { ...part, key: `no-${part.key}`, label: `Without ${part.label}`, text, negated: true };
    case 'verified':
      return part.verified
        ? { kind: 'verified', key: 'verified:not', label: 'Unverified', text, verified: false }
        : { kind: 'verified', key: 'verified:only', label: 'Verified only', text, verified: true };
    case 'sensitive':
      return part.sensitive ? { kind: 'sensitive', key: 'sensitive:exclude', label: 'Not sensitive', text, sensitive: false } : undefined;
    case 'flag':
      return { ...part, key: `${part.key}:${part.value ? 'not' : 'only'}`, label: part.value ? `Not ${part.label.toLowerCase()}` : part.label.replace(/^Not /, ''), text, value: !part.value };
    case 'state':
      return part.state === 'fixed' ? statePart('unfixed', text) : part.state === 'unfixed' ? statePart('fixed', text) : undefined;
    default:
      return undefined;
  }
}

function positiveAt(tokens: readonly string[], i: number, context: Context): Found | undefined {
  const { kinds, vocabulary } = context;
  const word = tokens[i]!;
  const textOf = (length: number) => tokens.slice(i, i + length).join(' ');
  if (kinds.has('count')) {
    for (const words of COUNT_PHRASES) {
      const length = phraseAt(tokens, i, words);
      if (length > 0) return { part: { kind: 'count', key: 'count', label: 'How many', text: textOf(length) }, length };
    }
  }
  if (kinds.has('accounts')) {
    const accounts = accountsAt(tokens, i);
    if (accounts) return accounts;
  }
  if (kinds.has('order') && (word === 'top' || SUPERLATIVE_LEAD.has(word) || amountAt(tokens, i))) {
    const order = orderAt(tokens, i);
    if (order) return order;
  }
  if (kinds.has('dates')) {
    const date = dateAt(tokens, i, context.now);
    if (date) {
      const text = textOf(date.length);
      const part: QueryPart = { kind: 'dates', key: `dates:${text}`, label: date.label, text };
      if (date.from) part.from = isoDay(date.from);
      if (date.until) part.until = isoDay(date.until);
      return { part, length: date.length };
    }
  }
  if (kinds.has('email') && word.includes('@')) return { part: { kind: 'email', key: `email:${word}`, label: word, text: word, email: word }, length: 1 };
  if (kinds.has('state')) {
    for (const { words, state } of STATE_PHRASES) {
      const length = phraseAt(tokens, i, words);
      if (length > 0) return { part: statePart(state, textOf(length)), length };
    }
  }
  for (const { words, make } of FLAG_PHRASES) {
    const length = phraseAt(tokens, i, words);
    if (length === 0) continue;
    const part = make(textOf(length));
    if (kinds.has(part.kind)) return { part, length };
  }
  if (kinds.has('domain')) {
    const domain = domainOf(word);
    if (domain) return { part: { kind: 'domain', key: `domain:${domain}`, label: domain, text: word, domain }, length: 1 };
  }
  if (kinds.has('dataClass')) {
    for (let length = Math.min(vocabulary.longest, tokens.length - i); length >= 1; length--) {
      const text = textOf(length);
      const name = vocabulary.phrases.get(text);
      if (name === undefined) continue;
      const reaches = vocabulary.reaches.get(text) ?? [name];
      const key = `dataClass:${reaches.map(dataClassKey).join('+')}`;
      return { part: { kind: 'dataClass', key, label: reaches.length > 1 && FAMILIES[text] ? text[0]!.toUpperCase() + text.slice(1) : name, text, dataClass: name, reaches }, length };
    }
  }
  if (kinds.has('name') && context.names) {
    const { titles, longest } = context.names;
    for (let length = Math.min(longest, tokens.length - i); length >= 1; length--) {
      const named = titles.get(textOf(length));
      if (named) return { part: { kind: 'name', key: `name:${textOf(length)}`, label: named.title, text: textOf(length), breachIds: named.ids }, length };
    }
  }
  return undefined;
}

function partAt(tokens: readonly string[], i: number, context: Context): Found | Unturnable | undefined {
  return negatedAt(tokens, i, context) ?? positiveAt(tokens, i, context);
}

function pass(text: string, context: Context, parts: Map<string, QueryPart>): string {
  const typed = tokensOf(text);
  const tokens = typed.map((word) => corrected(word, context.vocabulary));
  const kept: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const found = partAt(tokens, i, context);
    if (found && found.part === undefined) {
      for (const word of typed.slice(i, i + found.length)) if (!QUESTION_WORDS.has(word)) kept.push(word);
      i += found.length;
    } else if (found && context.dismissed.has(found.part.key)) {
      // Removed by the person: that bit of the question is ignored. Ranked as words instead, "after
      // 2020" would keep only the breaches whose description names the year.
      i += found.length;
    } else if (found) {
      if (!parts.has(found.part.key)) parts.set(found.part.key, found.part);
      i += found.length;
    } else {
      // A word read as misspelt but naming nothing stays as typed.
      if (!QUESTION_WORDS.has(tokens[i]!)) kept.push(typed[i]!);
      i += 1;
    }
  }
  return kept.join(' ');
}

export const ALL_KINDS: readonly QueryPartKind[] = ['dataClass', 'dates', 'sensitive', 'verified', 'flag', 'domain', 'name', 'accounts', 'order', 'count', 'state', 'email'];

/**
 * The parts a question names and the words left to rank. Runs until nothing changes, so words
 * that meet once others are gone are read too ("phone after 2020 numbers"), and understanding
 * the remaining text again finds nothing more.
 */
export function understandQuery(query: string, options: UnderstandOptions = {}): UnderstoodQuery {
  const vocabulary = vocabularyOf(options.dataClasses ?? []);
  const context: Context = {
    now: new Date(options.now ?? Date.now()),
    vocabulary,
    names: options.names ? namesOf(options.names, vocabulary) : undefined,
    dismissed: new Set(options.dismissed ?? []),
    kinds: new Set(options.kinds ?? ALL_KINDS),
  };
  if (Number.isNaN(context.now.getTime())) context.now = new Date(0);
  const parts = new Map<string, QueryPart>();
  let text = query;
  for (;;) {
    const before = parts.size;
    const next = pass(text, context, parts);
    if (next === text && parts.size === before) break;
    text = next;
  }
  return { parts: [...parts.values()], remaining: text };
}

/**
 * The question as the engines are sent it: the words of each part kept (not dismissed) and what
 * is left to rank. Both engines understand it again, and find the same parts.
 */
export function questionText(understood: UnderstoodQuery): string {
  return [...understood.parts.map((part) => part.text), understood.remaining].filter((text) => text !== '').join(' ');
}
