import type { LoginExportFormat, SkippedRow } from '../../../../shared/ipc/index.ts';

/** One account read from an export: what the import needs, nothing else (no notes, no one-time codes). */
export interface ExportedLogin {
  /** Where the person finds it: the data row of a CSV (1-based, the header not counted), the item of a JSON export (1-based, in file order). */
  row: number;
  title: string | null;
  url: string | null;
  username: string;
  password: string;
  /** ISO 8601, UTC */
  passwordChangedAt: string | null;
}

export interface ParsedExport {
  format: LoginExportFormat;
  logins: ExportedLogin[];
  skipped: number;
  skippedRows: SkippedRow[] /* first 50 */;
}

/** A login as a format reads it, before the shared checks; or why the row is not one (words, never the row's content). */
export type LoginFields = Omit<ExportedLogin, 'row'>;
export type RowReading = { login: LoginFields } | { skip: string };

/**
 * The largest export read: 200 MB is some 1.5 million logins in a CSV, far past any real vault,
 * and small enough to hold in memory with its parsed rows. A larger file is refused in a sentence.
 */
export const MAX_EXPORT_BYTES = 200 * 1024 * 1024;

/** A size in words: `12.5 MB`. */
export function megabytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 1 : 0 })} MB`;
}

/** How many skipped rows are listed by number; the rest are only counted. */
export const LISTED_SKIPPED_ROWS = 50;

/**
 * Caps past which a field is not a real account's but a broken or hostile file's. Password
 * managers generate at most a few hundred characters (Bitwarden's generator stops at 128,
 * 1Password's at 100); browsers refuse addresses over 2 MB but no sign-in page has one over 2,048.
 */
export const FIELD_CAPS = { password: 4096, url: 2048, username: 1024, title: 1024 } as const;

const CAP_WORDS: Record<keyof typeof FIELD_CAPS, string> = { password: 'password', url: 'web address', username: 'username', title: 'title' };

/** The checks every format shares: a login has a password, and no field is over its cap. */
export function loginProblem(login: LoginFields): string | null {
  if (login.password === '') return 'no password';
  for (const field of Object.keys(FIELD_CAPS) as (keyof typeof FIELD_CAPS)[]) {
    const value = login[field];
    if (value !== null && value.length > FIELD_CAPS[field]) return `${CAP_WORDS[field]} longer than ${FIELD_CAPS[field].toLocaleString('en-US')} characters`;
  }
  return null;
}

/** Gathers the logins and the skipped rows of one file, in file order. `label` is how the person would name a row: `row` in a CSV, `item` in a JSON export. */
export class ExportRows {
  readonly logins: ExportedLogin[] = [];
  readonly skippedRows: SkippedRow[] = [];
  skipped = 0;

  private readonly label: 'row' | 'item';

  constructor(label: 'row' | 'item') {
    this.label = label;
  }

  add(row: number, reading: RowReading): void {
    if ('skip' in reading) return this.skip(row, reading.skip);
    const problem = loginProblem(reading.login);
    if (problem !== null) return this.skip(row, problem);
    this.logins.push({ row, ...reading.login });
  }

  skip(row: number, reason: string): void {
    this.skipped++;
    if (this.skippedRows.length < LISTED_SKIPPED_ROWS) this.skippedRows.push({ row, reason: `${this.label} ${row}: ${reason}`.slice(0, 200) });
  }

  result(format: LoginExportFormat): ParsedExport {
    return { format, logins: this.logins, skipped: this.skipped, skippedRows: this.skippedRows };
  }
}

/** An empty field is no value: exports write '' where the person left a field blank. */
export function orNull(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

// Dates before 1990 or past 9999 are not a password change a person made: a zero, a
// placeholder, or a broken file. They read as unknown, never as a false "changed since".
const EARLIEST = Date.UTC(1990, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** Milliseconds since the epoch (UTC) as ISO 8601, or null when it is no plausible date. */
export function isoFromMillis(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < EARLIEST || ms > LATEST) return null;
  return new Date(ms).toISOString();
}

/** A whole number of milliseconds written as digits (Firefox's `timePasswordChanged`). */
export function isoFromMillisText(text: string): string | null {
  return /^\d{1,16}$/.test(text) ? isoFromMillis(Number(text)) : null;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/;

/**
 * An ISO 8601 date-time as the exports write it. Without a zone it is read as UTC: KeePassXC
 * keeps its times in UTC and writes `Z`; a file that lost the zone has no better guess.
 */
export function isoFromText(text: string): string | null {
  const match = ISO_DATE_TIME.exec(text);
  if (!match) return null;
  return isoFromMillis(Date.parse(match[1] === undefined ? `${text}Z` : text));
}
