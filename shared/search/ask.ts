import type { BreachSearchDocument } from './document.ts';
import { BREACH_FILTER_FIELDS, itemKey, questionRecordOf } from './document.ts';
import { compileFilter, type FieldSchema, type MetadataFilter } from './filter.ts';
import { understandQuery, type QueryOrder, type QueryPart } from './understandQuery.ts';

/**
 * What a question asks beyond the words to rank, in one place for every engine (the app's
 * embedded search, the reference service's search mount, the app's remote client): the filter
 * its parts say, the person's state it restricts to, the order it asks for and how many to keep,
 * and the answer sentence of aggregate questions, built from the same breaches as the list.
 */

/** The person's state of one breach (the app's local store knows it; a catalog service does not). */
export interface AccountBreachState {
  /** The person's addresses the breach found, lower case. */
  emails: readonly string[];
  resolution: 'fixed' | 'partly' | 'unfixed';
  /** Brought by the last sync. */
  isNew: boolean;
}
export type AccountStates = ReadonlyMap<string, AccountBreachState>;

/** The fields a question's filter may name: the breach's filter fields and its other flags. */
export const QUESTION_FILTER_FIELDS = {
  ...BREACH_FILTER_FIELDS,
  isFabricated: 'boolean',
  isSpamList: 'boolean',
  isRetired: 'boolean',
  isMalware: 'boolean',
  isStealerLog: 'boolean',
} as const satisfies FieldSchema;

const DAY = 24 * 3600;
const seconds = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);

/**
 * The new-format filter the parts say, or undefined when they say none: data classes (any of the
 * classes each part reaches; a negated part: none of them), dates (the latest start, the earliest
 * end), flags, domains, names (as item keys), account counts. The person's state is not a field:
 * see {@link personKeys}.
 */
export function questionFilter(parts: readonly QueryPart[]): MetadataFilter | undefined {
  const filter: MetadataFilter = {};
  const wanted: string[] = [];
  const unwanted: string[] = [];
  const domains: string[] = [];
  const keys: string[] = [];
  let from: string | undefined;
  let until: string | undefined;
  let min: number | undefined;
  let max: number | undefined;
  const addAll = (list: string[], names: readonly string[]) => {
    for (const name of names) if (!list.some((known) => known.toLowerCase() === name.toLowerCase())) list.push(name);
  };
  for (const part of parts) {
    switch (part.kind) {
      case 'dataClass':
        addAll(part.negated ? unwanted : wanted, part.reaches);
        break;
      case 'dates':
        if (part.from !== undefined && (from === undefined || part.from > from)) from = part.from;
        if (part.until !== undefined && (until === undefined || part.until < until)) until = part.until;
        break;
      case 'sensitive':
        filter.isSensitive = part.sensitive;
        break;
      case 'verified':
        filter.isVerified = part.verified;
        break;
      case 'flag':
        filter[part.flag] = part.value;
        break;
      case 'domain':
        addAll(domains, [part.domain]);
        break;
      case 'name':
        addAll(keys, part.breachIds.map(itemKey));
        break;
      case 'accounts':
        if (part.min !== undefined && (min === undefined || part.min > min)) min = part.min;
        if (part.max !== undefined && (max === undefined || part.max < max)) max = part.max;
        break;
      default:
        break;
    }
  }
  if (wanted.length > 0 || unwanted.length > 0) filter.dataClasses = { ...(wanted.length > 0 ? { $in: wanted } : {}), ...(unwanted.length > 0 ? { $nin: unwanted } : {}) };
  if (from !== undefined || until !== undefined) filter.breachDate = { ...(from !== undefined ? { $gte: seconds(from) } : {}), ...(until !== undefined ? { $lt: seconds(until) + DAY } : {}) };
  if (domains.length > 0) filter.domain = { $in: domains };
  if (keys.length > 0) filter.key = { $in: keys };
  if (min !== undefined || max !== undefined) filter.pwnCount = { ...(min !== undefined ? { $gt: min } : {}), ...(max !== undefined ? { $lt: max } : {}) };
  return Object.keys(filter).length > 0 ? filter : undefined;
}

/** Whether the question says anything about the person's own state (fixed, new, one address). */
export const asksAboutPerson = (parts: readonly QueryPart[]): boolean => parts.some((part) => part.kind === 'state' || part.kind === 'email');

/**
 * The breaches the person's state parts admit, as ids (every state part applies; addresses any
 * of them), or undefined when the question says nothing about the person.
 */
export function personKeys(parts: readonly QueryPart[], account: AccountStates): string[] | undefined {
  if (!asksAboutPerson(parts)) return undefined;
  const emails = parts.flatMap((part) => (part.kind === 'email' ? [part.email.toLowerCase()] : []));
  const states = parts.flatMap((part) => (part.kind === 'state' ? [part.state] : []));
  const admits = (state: AccountBreachState) =>
    (emails.length === 0 || emails.some((email) => state.emails.includes(email))) &&
    states.every((wanted) => (wanted === 'new' ? state.isNew : wanted === 'unfixed' ? state.resolution !== 'fixed' : state.resolution === wanted));
  return [...account].filter(([, state]) => admits(state)).map(([id]) => id);
}

/** The order and the number to keep the question asks for (the last order it names wins). */
export function questionOrder(parts: readonly QueryPart[]): { order: QueryOrder; limit: number | undefined } | undefined {
  const part = parts.findLast((candidate) => candidate.kind === 'order');
  return part?.kind === 'order' ? { order: part.order, limit: part.limit } : undefined;
}

interface Ordered {
  id: string;
  title: string;
  pwnCount: number;
  breachDate: number;
  addedAt?: number;
}

const byId = (a: Ordered, b: Ordered) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Sorts by the order asked: accounts or breach date, equal values by (latest added, then) id. */
export function compareBy(order: QueryOrder): (a: Ordered, b: Ordered) => number {
  const sign = order.direction === 'desc' ? -1 : 1;
  if (order.by === 'pwnCount') return (a, b) => sign * (a.pwnCount - b.pwnCount) || byId(a, b);
  return (a, b) => sign * (a.breachDate - b.breachDate || (a.addedAt ?? 0) - (b.addedAt ?? 0)) || sign * -byId(a, b);
}

/**
 * A question's answer over one set of documents, whatever engine found them: the question's
 * filter and the person's keys kept, ordered as asked, cut to the number asked. `total` is how
 * many matched before the cut.
 */
export function arrange<T extends { doc: BreachSearchDocument }>(hits: readonly T[], parts: readonly QueryPart[], account?: AccountStates): { hits: T[]; total: number } {
  const filter = questionFilter(parts);
  const admits = filter ? compileFilter(filter) : () => true;
  const keys = account ? personKeys(parts, account) : undefined;
  const allowed = keys ? new Set(keys) : undefined;
  const kept = hits.filter((hit) => admits(questionRecordOf(hit.doc)) && (allowed === undefined || allowed.has(hit.doc.id)));
  const asked = questionOrder(parts);
  if (!asked) return { hits: kept, total: kept.length };
  const compare = compareBy(asked.order);
  const sorted = [...kept].sort((a, b) => compare(orderedOf(a.doc), orderedOf(b.doc)));
  return { hits: asked.limit === undefined ? sorted : sorted.slice(0, asked.limit), total: kept.length };
}

const orderedOf = (doc: BreachSearchDocument): Ordered => ({ id: doc.id, title: doc.title, pwnCount: doc.pwnCount, breachDate: doc.breachDate, addedAt: doc.addedAt });

// ---- The answer sentence -------------------------------------------------------------------

/** What a sentence reads of a result (a document, or a chunk's metadata). */
export interface SentenceItem {
  title: string;
  pwnCount: number;
  /** Seconds. */
  breachDate: number;
}

const count = (n: number) => n.toLocaleString('en-US');
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
/** "Phone numbers" → "phone numbers"; "IP addresses" stays. */
const inSentence = (label: string) => (/^\p{Lu}\p{Ll}/u.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label);

/**
 * The sentence before the list of an aggregate question, from the same results as the list:
 * "how many …" → "12 breaches exposed your phone numbers" (or "… match"); "the biggest" →
 * "QuartzMail, 181,259,234 accounts"; "the 5 largest" → "The 5 largest: A (n), …"; "the latest" →
 * "A, breached on 2024-05-01". Undefined for other questions, and for an empty answer to an order.
 * `total` is how many matched (the list may hold fewer); `atLeast` says the total is a floor
 * (a remote instance answers at most a page).
 */
export function answerSentence(parts: readonly QueryPart[], items: readonly SentenceItem[], total: number, atLeast = false): string | undefined {
  if (parts.some((part) => part.kind === 'count')) {
    const classes = parts.flatMap((part) => (part.kind === 'dataClass' && !part.negated ? [inSentence(part.label)] : []));
    const what = classes.length > 0 ? `exposed your ${classes.join(' or ')}` : 'match';
    return `${atLeast ? 'At least ' : ''}${count(total)} ${total === 1 ? 'breach' : 'breaches'} ${what}`;
  }
  const asked = questionOrder(parts);
  if (!asked || items.length === 0) return undefined;
  const word = asked.order.by === 'pwnCount' ? (asked.order.direction === 'desc' ? 'largest' : 'smallest') : asked.order.direction === 'desc' ? 'latest' : 'oldest';
  const fact = (item: SentenceItem) => (asked.order.by === 'pwnCount' ? `${count(item.pwnCount)} ${item.pwnCount === 1 ? 'account' : 'accounts'}` : `breached on ${day(item.breachDate)}`);
  if (asked.limit === 1) return `${items[0]!.title}, ${fact(items[0]!)}`;
  if (asked.limit === undefined) return undefined;
  const brief = (item: SentenceItem) => `${item.title} (${asked.order.by === 'pwnCount' ? count(item.pwnCount) : day(item.breachDate)})`;
  return `The ${items.length} ${word}: ${items.map(brief).join(', ')}`;
}

// ---- One question, start to end --------------------------------------------------------------

export interface AskOptions {
  /** "Now" for relative dates. */
  now?: Date | number;
  /** The data class names the documents use. */
  dataClasses?: readonly string[];
  /** The breaches a question may name by title. */
  names?: readonly { id: string; title: string }[];
  /** The person's state of each breach; without it, state parts restrict nothing (a catalog service). */
  account?: AccountStates;
}

export interface AskPlan {
  parts: QueryPart[];
  /** The words left once the parts are read. */
  remaining: string;
  /**
   * The words the engine ranks: the remaining ones, or none when the question names a breach
   * ("what happened with LinkedIn in 2021"): the name decides, and the other words are about it.
   */
  ranked: string;
  /** Whether every match must be fetched (the question filters, orders or counts after ranking). */
  needsAll: boolean;
}

/** The question understood: what the engine ranks, and whether it must return every match. */
export function planAsk(text: string, options: AskOptions): AskPlan {
  const { parts, remaining } = understandQuery(text, { now: options.now, dataClasses: options.dataClasses, names: options.names });
  const needsAll =
    questionFilter(parts) !== undefined || questionOrder(parts) !== undefined || parts.some((part) => part.kind === 'count') || (options.account !== undefined && asksAboutPerson(parts));
  const ranked = parts.some((part) => part.kind === 'name') ? '' : remaining;
  return { parts, remaining, ranked, needsAll };
}

/**
 * The engine's hits for `plan.remaining` (every match when `plan.needsAll`) made the question's
 * answer: filtered, ordered and cut as it asks, the first `maxResults` kept, the sentence said.
 */
export function finishAsk<T extends { doc: BreachSearchDocument }>(
  plan: AskPlan,
  hits: readonly T[],
  maxResults: number,
  account?: AccountStates,
): { hits: T[]; total: number; sentence: string | undefined } {
  const arranged = arrange(hits, plan.parts, account);
  const kept = arranged.hits.slice(0, maxResults);
  const total = questionOrder(plan.parts)?.limit !== undefined ? arranged.hits.length : arranged.total;
  return {
    hits: kept,
    total,
    sentence: answerSentence(
      plan.parts,
      kept.map((hit) => hit.doc),
      total,
    ),
  };
}
