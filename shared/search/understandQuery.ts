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
export type QueryPart =
  | (PartBase & { kind: 'dataClass'; dataClass: string })
  /** Inclusive `YYYY-MM-DD` bounds (UTC days); at least one is set. */
  | (PartBase & { kind: 'dates'; from?: string; until?: string })
  | (PartBase & { kind: 'sensitive'; sensitive: boolean })
  | (PartBase & { kind: 'verified' })
  | (PartBase & { kind: 'domain'; domain: string });
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
}

/** Runs of letters and digits, joined by an apostrophe, dot or hyphen ("driver's", "adobe.com", "2018-2020"). */
const TOKEN = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

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
  ]
    .join(' ')
    .split(' '),
);
const NEGATIONS = new Set(['no', 'not', 'without', 'except', 'excluding', 'never', 'non']);

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
  'Phone numbers': ['phone', 'phones', 'telephone', 'telephone number', 'telephone numbers', 'mobile number', 'mobile numbers', 'cell number', 'cell numbers', 'cellphone numbers'],
  'IP addresses': ['ip', 'ips', 'ip address', 'ip addresses', 'ip-address', 'ip-addresses'],
  'Physical addresses': ['home address', 'home addresses', 'postal address', 'postal addresses', 'street address', 'street addresses', 'mailing address', 'mailing addresses'],
  'Dates of birth': ['dob', 'dobs', 'birthday', 'birthdays', 'birth date', 'birth dates', 'birthdate', 'birthdates', 'date of birth'],
  Usernames: ['user name', 'user names', 'login name', 'login names', 'screen name', 'screen names'],
  Names: ['real name', 'real names', 'full name', 'full names'],
  'Geographic locations': ['location', 'locations', 'geolocation', 'geolocations', 'geographic location'],
  'Credit cards': ['credit card', 'credit card number', 'credit card numbers', 'card number', 'card numbers'],
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
  'Personal health data': ['health data', 'health records', 'medical data', 'medical records', 'medical information', 'health information'],
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
  longest: number;
}

const vocabularies = new Map<string, Vocabulary>();

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
  for (const word of ['name', 'age', 'ages', 'race', 'races', 'pin', 'bio']) phrases.delete(word);
  let longest = 1;
  for (const phrase of phrases.keys()) longest = Math.max(longest, phrase.split(' ').length);
  const vocabulary = { phrases, longest };
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

// ---- One pass and the fixed point --------------------------------------------------------

interface Context {
  now: Date;
  vocabulary: Vocabulary;
  dismissed: ReadonlySet<string>;
  kinds: ReadonlySet<QueryPartKind>;
}

type Found = { part: QueryPart; length: number };

function partAt(tokens: readonly string[], i: number, context: Context): Found | undefined {
  const { kinds, vocabulary } = context;
  const word = tokens[i]!;
  const textOf = (length: number) => tokens.slice(i, i + length).join(' ');
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
  if (kinds.has('sensitive')) {
    const next = tokens[i + 1];
    if ((word === 'not' || word === 'non') && next === 'sensitive')
      return { part: { kind: 'sensitive', key: 'sensitive:exclude', label: 'Not sensitive', text: textOf(2), sensitive: false }, length: 2 };
    if (word === 'non-sensitive' || word === 'nonsensitive') return { part: { kind: 'sensitive', key: 'sensitive:exclude', label: 'Not sensitive', text: word, sensitive: false }, length: 1 };
    if (word === 'sensitive' && !NEGATIONS.has(tokens[i - 1] ?? '')) return { part: { kind: 'sensitive', key: 'sensitive:only', label: 'Sensitive only', text: word, sensitive: true }, length: 1 };
  }
  if (kinds.has('verified') && word === 'verified' && !NEGATIONS.has(tokens[i - 1] ?? '')) return { part: { kind: 'verified', key: 'verified', label: 'Verified only', text: word }, length: 1 };
  if (kinds.has('domain')) {
    const domain = domainOf(word);
    if (domain) return { part: { kind: 'domain', key: `domain:${domain}`, label: domain, text: word, domain }, length: 1 };
  }
  if (kinds.has('dataClass') && !NEGATIONS.has(tokens[i - 1] ?? '')) {
    for (let length = Math.min(vocabulary.longest, tokens.length - i); length >= 1; length--) {
      const text = textOf(length);
      const name = vocabulary.phrases.get(text);
      if (name !== undefined) return { part: { kind: 'dataClass', key: `dataClass:${dataClassKey(name)}`, label: name, text, dataClass: name }, length };
    }
  }
  return undefined;
}

function pass(text: string, context: Context, parts: Map<string, QueryPart>): string {
  const tokens = tokensOf(text);
  const kept: string[] = [];
  for (let i = 0; i < tokens.length;) {
    const found = partAt(tokens, i, context);
    if (found && context.dismissed.has(found.part.key)) {
      // Removed by the person: that bit of the question is ignored. Ranked as words instead, "after
      // 2020" would keep only the breaches whose description names the year.
      i += found.length;
    } else if (found) {
      if (!parts.has(found.part.key)) parts.set(found.part.key, found.part);
      i += found.length;
    } else {
      if (!QUESTION_WORDS.has(tokens[i]!)) kept.push(tokens[i]!);
      i += 1;
    }
  }
  return kept.join(' ');
}

const ALL_KINDS: readonly QueryPartKind[] = ['dataClass', 'dates', 'sensitive', 'verified', 'domain'];

/**
 * The parts a question names and the words left to rank. Runs until nothing changes, so words
 * that meet once others are gone are read too ("phone after 2020 numbers"), and understanding
 * the remaining text again finds nothing more.
 */
export function understandQuery(query: string, options: UnderstandOptions = {}): UnderstoodQuery {
  const context: Context = {
    now: new Date(options.now ?? Date.now()),
    vocabulary: vocabularyOf(options.dataClasses ?? []),
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
