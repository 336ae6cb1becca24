import { CoreError } from '../../../../shared/ipc/index.ts';
import { readBitwardenItem } from './bitwardenJson.ts';
import { decodeText } from './decodeText.ts';
import { detectJsonShape, looksLikeZip, notAKnownExport } from './detectExportFormat.ts';
import { MAX_EXPORT_BYTES, megabytes, type ParsedExport } from './exportedLogin.ts';
import { readOnePassword1pux } from './onePassword1pux.ts';
import { readCsvExport } from './readCsvExport.ts';
import { readItems } from './readItems.ts';
import { throwIfCancelled, type ReadOptions } from './readOptions.ts';

export type { ExportedLogin, ParsedExport } from './exportedLogin.ts';
export { MAX_EXPORT_BYTES } from './exportedLogin.ts';

/**
 * The logins of a password manager's export file, its format recognised from its content (a
 * zip archive, a JSON document, a CSV header), never from its name. A row that is not a login,
 * or is malformed, is skipped and counted with its reason; the file as a whole is refused only
 * when it is none of the known formats (one sentence naming them), empty, too large, not text,
 * or an encrypted Bitwarden export. Errors are CoreErrors: `invalid-arguments` for the file,
 * `cancelled` when `signal` aborts. Passwords are returned as read: the caller holds them only
 * while it checks them.
 */
export async function readLoginExport(bytes: Uint8Array, options: ReadOptions = {}): Promise<ParsedExport> {
  throwIfCancelled(options.signal);
  if (bytes.length > MAX_EXPORT_BYTES) throw new CoreError('invalid-arguments', `The file is ${megabytes(bytes.length)}, more than the ${megabytes(MAX_EXPORT_BYTES)} this app reads from an export.`);
  if (bytes.length === 0) throw emptyFile();
  if (looksLikeZip(bytes)) return readOnePassword1pux(bytes, options);

  const { text, utf8 } = decodeText(bytes);
  const start = text.search(/\S/);
  if (start === -1) throw emptyFile();
  if (text[start] === '{') return readJsonExport(text, options);
  return readCsvExport(utf8, options);
}

function emptyFile(): CoreError {
  return new CoreError('invalid-arguments', 'The file is empty: there are no logins in it to import.');
}

async function readJsonExport(text: string, options: ReadOptions): Promise<ParsedExport> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CoreError('invalid-arguments', 'The file starts like a JSON export but is not valid JSON (it may be cut short), so it cannot be read. Export it again.');
  }
  const shape = detectJsonShape(value);
  if (shape === 'bitwarden-encrypted') {
    throw new CoreError(
      'invalid-arguments',
      'This Bitwarden export is encrypted, and this app cannot open it: export your vault again from Bitwarden choosing the “.json” format, not “.json (Encrypted)”.',
    );
  }
  if (shape !== 'bitwarden-json') throw notAKnownExport();
  return readItems('bitwarden-json', (value as { items: unknown[] }).items, readBitwardenItem, options);
}
