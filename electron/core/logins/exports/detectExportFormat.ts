import { CoreError, LOGIN_EXPORT_FORMAT_NAMES, LoginExportFormat } from '../../../../shared/ipc/index.ts';
import { bitwardenCsv } from './bitwardenCsv.ts';
import { chromeCsv } from './chromeCsv.ts';
import type { CsvFormat } from './csvFormat.ts';
import { firefoxCsv } from './firefoxCsv.ts';
import { keepassxcCsv } from './keepassxcCsv.ts';
import { onePasswordCsv } from './onePasswordCsv.ts';

const CSV_FORMATS: readonly CsvFormat[] = [chromeCsv, firefoxCsv, bitwardenCsv, onePasswordCsv, keepassxcCsv];

/** A header cell as compared: the exports differ in letter case (Firefox's reader ignores it) and some tools pad cells. */
export function columnName(cell: string): string {
  return cell.trim().toLowerCase();
}

/** The CSV format whose header this is: every required column, no column it does not know, none twice. */
export function detectCsvFormat(header: readonly string[]): CsvFormat | null {
  const names = header.map(columnName);
  if (new Set(names).size !== names.length) return null;
  return CSV_FORMATS.find((format) => format.required.every((column) => names.includes(column)) && names.every((name) => format.required.includes(name) || format.optional.includes(name))) ?? null;
}

export type JsonShape = 'bitwarden-json' | 'bitwarden-encrypted' | null;

/**
 * Bitwarden's JSON export always says whether it is encrypted (bitwarden/clients,
 * vault-export-core: BitwardenUnEncryptedIndividualJsonExport and the org and encrypted
 * variants): `encrypted: false` with `items`, or `encrypted: true` (account-restricted, with
 * `items` of cipher strings, or password-protected, with `data`). Nothing else is read as JSON.
 */
export function detectJsonShape(value: unknown): JsonShape {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  if (record.encrypted === true && (Array.isArray(record.items) || typeof record.data === 'string')) return 'bitwarden-encrypted';
  if (record.encrypted === false && Array.isArray(record.items)) return 'bitwarden-json';
  return null;
}

/** The zip archive's local file header signature (PKWARE APPNOTE.TXT 4.3.7), or an empty archive's end record (4.3.16). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));
}

const KNOWN_FORMATS = new Intl.ListFormat('en', { type: 'conjunction' }).format(LoginExportFormat.options.map((format) => LOGIN_EXPORT_FORMAT_NAMES[format]));

/** The one sentence a file of another shape gets. */
export function notAKnownExport(): CoreError {
  return new CoreError('invalid-arguments', `This file is not a password export this app can read; it reads ${KNOWN_FORMATS}.`);
}
