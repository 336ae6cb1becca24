import type { Breach } from '../api/breach.ts';
import type { BreachDetails } from '../catalog/details.ts';
import type { FieldSchema, FilterRecord } from './filter.ts';

/**
 * One breach as the search index sees it: the catalog record plus, when the details feed has
 * them, title, description, verification and account count. Timestamps are integer seconds.
 */
export interface BreachSearchDocument {
  id: string;
  title: string;
  /** Plain text (the feed's HTML with tags removed and entities decoded). */
  description: string;
  domain: string;
  breachDate: number;
  addedAt: number;
  dataClasses: string[];
  isSensitive: boolean;
  isVerified: boolean;
  pwnCount: number;
  /** The catalog's other flags (false without details); questions name them ("malware breaches"). */
  isFabricated: boolean;
  isSpamList: boolean;
  isRetired: boolean;
  isMalware: boolean;
  isStealerLog: boolean;
}

/** What a filter may name: the item's `key` and `timestamp` (added) and the metadata fields. */
export const BREACH_FILTER_FIELDS = {
  key: 'string',
  timestamp: 'seconds',
  title: 'string',
  domain: 'string',
  breachDate: 'seconds',
  dataClasses: 'string[]',
  isSensitive: 'boolean',
  isVerified: 'boolean',
  pwnCount: 'number',
} as const satisfies FieldSchema;

export const ITEM_KEY_PREFIX = 'breaches/';
export const itemKey = (breachId: string): string => ITEM_KEY_PREFIX + breachId;
/** The breach id of an item key, or undefined for a key of another kind. */
export const breachIdOfKey = (key: string): string | undefined => (key.startsWith(ITEM_KEY_PREFIX) ? key.slice(ITEM_KEY_PREFIX.length) : undefined);

export const toSeconds = (isoDateOrTime: string): number => Math.floor(Date.parse(isoDateOrTime.length === 10 ? isoDateOrTime + 'T00:00:00Z' : isoDateOrTime) / 1000);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text of a catalog description: tags dropped, entities decoded, white space collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The search document of a breach; without details the id stands in for the title. */
export function toSearchDocument(breach: Breach, details?: BreachDetails): BreachSearchDocument {
  return {
    id: breach.id,
    title: details?.title ?? breach.id,
    description: details ? htmlToText(details.description) : '',
    domain: breach.domain,
    breachDate: toSeconds(breach.breachDate),
    addedAt: toSeconds(breach.addedDate),
    dataClasses: [...breach.dataClasses],
    isSensitive: breach.isSensitive,
    isVerified: details?.isVerified ?? false,
    pwnCount: details?.pwnCount ?? 0,
    isFabricated: details?.isFabricated ?? false,
    isSpamList: details?.isSpamList ?? false,
    isRetired: details?.isRetired ?? false,
    isMalware: details?.isMalware ?? false,
    isStealerLog: details?.isStealerLog ?? false,
  };
}

/** The chunk metadata of a document (`item.metadata`). */
export function documentMetadata(doc: BreachSearchDocument) {
  return {
    title: doc.title,
    domain: doc.domain,
    breachDate: doc.breachDate,
    dataClasses: doc.dataClasses,
    isSensitive: doc.isSensitive,
    isVerified: doc.isVerified,
    pwnCount: doc.pwnCount,
  };
}

/** The record filters run over: metadata plus the item's key and timestamp. */
export function filterRecordOf(doc: BreachSearchDocument): FilterRecord {
  return { ...documentMetadata(doc), key: itemKey(doc.id), timestamp: doc.addedAt };
}

/**
 * The record a question's own filter runs over: {@link filterRecordOf} plus the catalog's other
 * flags, which questions name ("malware breaches") but a caller's filter cannot.
 */
export function questionRecordOf(doc: BreachSearchDocument): FilterRecord {
  return {
    ...filterRecordOf(doc),
    // Documents stored before the flags were indexed (PostgreSQL) have none: false.
    isFabricated: doc.isFabricated ?? false,
    isSpamList: doc.isSpamList ?? false,
    isRetired: doc.isRetired ?? false,
    isMalware: doc.isMalware ?? false,
    isStealerLog: doc.isStealerLog ?? false,
  };
}

/** The chunk text: what a reader (or an answer) quotes. */
export function chunkText(doc: BreachSearchDocument): string {
  const where = doc.domain ? ` (${doc.domain})` : '';
  const description = doc.description ? ` ${doc.description}` : '';
  const classes = doc.dataClasses.length > 0 ? ` Compromised data: ${doc.dataClasses.join(', ')}.` : '';
  return `${doc.title}${where}.${description}${classes}`;
}
