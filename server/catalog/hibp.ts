import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Breach, IsoDate, IsoDateTime, toMinutePrecision } from '../../shared/api/index.ts';
import { BreachDetails, type CatalogDetails } from '../../shared/catalog/index.ts';
import { compareIds, normalizeDataClasses } from './dataClasses.ts';

/**
 * One record of the Have I Been Pwned breach catalog (API v2/v3 field names). Loose, because
 * HIBP adds fields over time (IsMalware, IsSubscriptionFree, ...) and a catalog a user brings
 * should not be refused for them. The exclusion flags default to false because older
 * snapshots predate some of them.
 * A plain object, unknown keys dropped: a loose one copies extra keys by assignment, which a
 * hostile catalog's `toString` key would trip over once Object.prototype is frozen (refreshes run
 * after start-up).
 */
export const HibpBreachRecord = z.object({
  Name: z.string().min(1),
  Title: z.string().optional(),
  Domain: z.string(),
  BreachDate: IsoDate,
  AddedDate: IsoDateTime,
  ModifiedDate: IsoDateTime,
  DataClasses: z.array(z.string().trim().min(1)),
  IsSensitive: z.boolean(),
  IsRetired: z.boolean().default(false),
  IsFabricated: z.boolean().default(false),
  IsSpamList: z.boolean().default(false),
  // Details (the feed at `catalog/breaches`); defaults for snapshots that predate a field.
  PwnCount: z.int().min(0).default(0),
  Description: z.string().default(''),
  LogoPath: z.string().default(''),
  IsVerified: z.boolean().default(false),
  IsMalware: z.boolean().default(false),
  IsStealerLog: z.boolean().default(false),
});
export type HibpBreachRecord = z.infer<typeof HibpBreachRecord>;

/** Why a valid record was left out of the catalog; the first matching reason counts. */
export type HibpSkipReason = 'retired' | 'fabricated' | 'spamList';

export interface HibpImport {
  /** Kept breaches, ordered by id. */
  breaches: Breach[];
  /** Records in the file. */
  total: number;
  skipped: Record<HibpSkipReason, number>;
  /** Which records were left out of the breach-alert catalog and why, in file order. */
  skippedBreaches: { id: string; reason: HibpSkipReason }[];
  /** Details of every record, kept or skipped (their flags say why): the details feed. Keyed by name, without a prototype. */
  details: CatalogDetails;
  /** Lenient reading only: records left out because they are not valid (the rest is used). */
  rejected: RejectedRecord[];
}

/** A record a lenient reading left out: where it was, its name when it has one, and the first problem. */
export interface RejectedRecord {
  index: number;
  name: string | undefined;
  problem: string;
}

/** A catalog file that cannot be used; `index` and `field` locate the first bad record. */
export class HibpCatalogError extends Error {
  readonly index: number | undefined;
  readonly field: string | undefined;

  constructor(message: string, location: { index?: number; field?: string } = {}) {
    super(message);
    this.name = 'HibpCatalogError';
    this.index = location.index;
    this.field = location.field;
  }
}

/** The kept breaches of a HIBP catalog file, ordered by id; see {@link loadHibpCatalog}. */
export function loadHibpCatalogFile(path: string): Breach[] {
  return loadHibpCatalog(path).breaches;
}

/** Reads and converts a HIBP catalog file, with counts; see {@link parseHibpCatalog}. */
export function loadHibpCatalog(path: string): HibpImport {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HibpCatalogError(`cannot read the HIBP catalog ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new HibpCatalogError(`the HIBP catalog ${path} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseHibpCatalog(json);
  } catch (error) {
    if (error instanceof HibpCatalogError) throw new HibpCatalogError(`${path}: ${error.message}`, { index: error.index, field: error.field });
    throw error;
  }
}

/**
 * Validates every record (a skipped record must still be well-formed: a file with a broken
 * record is a broken file) and converts the kept ones to {@link Breach}. `lenient` (HIBP's own
 * answer, fetched unattended): a record that is not valid, or repeats a name, is left out and
 * listed in `rejected` instead, so one odd record costs only itself, never the catalog.
 * Whatever HIBP names a breach (`Foo.Bar`, `__proto__`) is its id: `details` has no prototype.
 */
export function parseHibpCatalog(json: unknown, options: { lenient?: boolean } = {}): HibpImport {
  if (!Array.isArray(json)) throw new HibpCatalogError('a HIBP catalog must be a JSON array of breach records');
  const skipped: Record<HibpSkipReason, number> = { retired: 0, fabricated: 0, spamList: 0 };
  const breaches: Breach[] = [];
  const skippedBreaches: HibpImport['skippedBreaches'] = [];
  const details = Object.create(null) as CatalogDetails;
  const rejected: RejectedRecord[] = [];
  const firstIndexOfName = new Map<string, number>();
  json.forEach((raw: unknown, index) => {
    const parsed = HibpBreachRecord.safeParse(raw);
    if (!parsed.success) {
      const error = recordError(index, raw, parsed.error.issues);
      if (!options.lenient) throw error;
      rejected.push({ index, name: isObject(raw) && typeof raw.Name === 'string' ? raw.Name : undefined, problem: error.message });
      return;
    }
    const record = parsed.data;
    const earlier = firstIndexOfName.get(record.Name);
    if (earlier !== undefined) {
      const error = new HibpCatalogError(`record ${index} ("${record.Name}"), field "Name": duplicate of record ${earlier}; breach names must be unique`, {
        index,
        field: 'Name',
      });
      if (!options.lenient) throw error;
      rejected.push({ index, name: record.Name, problem: error.message });
      return;
    }
    firstIndexOfName.set(record.Name, index);
    const reason = skipReason(record);
    details[record.Name] = hibpRecordToDetails(record);
    if (reason) {
      skipped[reason]++;
      skippedBreaches.push({ id: record.Name, reason });
    } else breaches.push(hibpRecordToBreach(record));
  });
  breaches.sort((a, b) => compareIds(a.id, b.id));
  return { breaches, total: json.length, skipped, skippedBreaches, details, rejected };
}

export function skipReason(record: HibpBreachRecord): HibpSkipReason | undefined {
  if (record.IsRetired) return 'retired';
  if (record.IsFabricated) return 'fabricated';
  if (record.IsSpamList) return 'spamList';
  return undefined;
}

export function hibpRecordToBreach(record: HibpBreachRecord): Breach {
  const addedDate = toMinutePrecision(record.AddedDate);
  const modifiedDate = toMinutePrecision(record.ModifiedDate);
  return Breach.parse({
    id: record.Name,
    domain: record.Domain,
    breachDate: record.BreachDate,
    addedDate,
    // The contract promises modifiedDate >= addedDate; a source that says otherwise has a
    // clock or edit glitch, and "never changed since added" is the honest reading.
    modifiedDate: Date.parse(modifiedDate) < Date.parse(addedDate) ? addedDate : modifiedDate,
    dataClasses: normalizeDataClasses(record.DataClasses),
    isSensitive: record.IsSensitive,
  });
}

/** The details-feed form of a record: HIBP's fields in camelCase, dates as in {@link hibpRecordToBreach}. */
export function hibpRecordToDetails(record: HibpBreachRecord): BreachDetails {
  const breach = hibpRecordToBreach(record);
  return BreachDetails.parse({
    title: record.Title?.trim() || record.Name,
    domain: breach.domain,
    breachDate: breach.breachDate,
    addedDate: breach.addedDate,
    modifiedDate: breach.modifiedDate,
    pwnCount: record.PwnCount,
    description: record.Description,
    logoPath: record.LogoPath,
    dataClasses: breach.dataClasses,
    isVerified: record.IsVerified,
    isFabricated: record.IsFabricated,
    isSensitive: record.IsSensitive,
    isRetired: record.IsRetired,
    isSpamList: record.IsSpamList,
    isMalware: record.IsMalware,
    isStealerLog: record.IsStealerLog,
  });
}

function recordError(index: number, raw: unknown, issues: readonly z.core.$ZodIssue[]): HibpCatalogError {
  const first = issues[0];
  const field = first ? formatPath(first.path) : '';
  const name = isObject(raw) && typeof raw.Name === 'string' ? ` ("${raw.Name}")` : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more issue${issues.length > 2 ? 's' : ''})` : '';
  const where = field === '' ? `record ${index}${name}` : `record ${index}${name}, field "${field}"`;
  return new HibpCatalogError(`${where}: ${first?.message ?? 'invalid record'}${more}`, { index, field: field || undefined });
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : (i > 0 ? '.' : '') + String(part))).join('');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
