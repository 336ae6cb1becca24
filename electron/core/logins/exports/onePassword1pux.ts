// The browser build: the same pure-JS unzipper without the Node build's worker plumbing (see exportData).
import { Unzip, UnzipInflate } from 'fflate/browser';
import { concatBytes } from '../../../../shared/base/bytes.ts';
import { CoreError } from '../../../../shared/ipc/index.ts';
import { decodeText } from './decodeText.ts';
import { notAKnownExport } from './detectExportFormat.ts';
import { isoFromMillis, MAX_EXPORT_BYTES, megabytes, orNull, type ParsedExport, type RowReading } from './exportedLogin.ts';
import { arrayAt, objectAt, readItems, stringAt } from './readItems.ts';
import { throwIfCancelled, type ReadOptions } from './readOptions.ts';

/**
 * 1Password's "1Password Unencrypted Export" (support.1password.com/1pux-format): a zip archive
 * with `export.attributes`, `export.data` and `files/`. `export.data` is JSON: `accounts[]` →
 * `vaults[]` → `items[]`. An item's username and password are the `details.loginFields` whose
 * `designation` is `username` and `password`; its address is `overview.url`, else the first of
 * `overview.urls[]`; its title `overview.title`; `categoryUuid` says what it is (`001` a Login).
 * Field names as 1Password documents them and as Bitwarden's importer reads them
 * (bitwarden/clients, libs/importer/src/importers/onepassword/onepassword-1pux-importer.ts).
 *
 * The password's change date: the latest `time` (seconds since the epoch) in
 * `details.passwordHistory`, where 1Password keeps each earlier password with the moment it was
 * replaced, so the latest is when the current one was set. Without a history the date is
 * unknown: `updatedAt` moves with any edit (a tag, a note), and `createdAt` is the day the item
 * reached 1Password (an import from elsewhere included), neither the day the password was chosen.
 */
export async function readOnePassword1pux(bytes: Uint8Array, options: ReadOptions): Promise<ParsedExport> {
  const data = await exportData(bytes, options.signal);
  let parsed: unknown;
  try {
    parsed = JSON.parse(decodeText(data).text);
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw new CoreError('invalid-arguments', 'The 1Password export (.1pux) holds data that is not valid JSON, so it cannot be read. Export it again from 1Password.');
  }
  const accounts = objectAt(parsed)?.accounts;
  if (!Array.isArray(accounts)) throw notAKnownExport();
  const items = accounts.flatMap((account) => arrayAt(objectAt(account), 'vaults').flatMap((vault) => arrayAt(objectAt(vault), 'items')));
  return readItems('1password-1pux', items, readOnePasswordItem, options);
}

/** Compressed bytes fed to the unzipper at a time: at most ~64 MB unpacked per step (DEFLATE's ratio is at most 1032:1), checked against the cap after each. */
const STEP_BYTES = 64 * 1024;
/** Steps between two turns of the event loop (a cancel is seen at each turn). */
const STEPS_PER_TURN = 4;

/**
 * `export.data` from the archive, and nothing else of it unpacked (attachments stay compressed).
 * fflate's streaming unzipper in steps on this thread: its one-call `unzip` unpacks on a worker
 * that its Node build creates through `createRequire`, which the core's ES-module bundle cannot
 * hold, and a step at a time lets a cancel land mid-archive. The size the archive declares is
 * checked before anything is unpacked (a zip bomb is refused, not inflated), and the size
 * unpacked is checked again after every step (a header may say 0 and carry the size after the data).
 */
async function exportData(bytes: Uint8Array, signal: AbortSignal | undefined): Promise<Uint8Array> {
  const damaged = () => new CoreError('invalid-arguments', 'The file is a zip archive that cannot be opened (it may be damaged or cut short). Export it again.');
  const tooLarge = (size: number) =>
    new CoreError('invalid-arguments', `The 1Password export holds ${megabytes(size)} of data once unpacked, more than the ${megabytes(MAX_EXPORT_BYTES)} this app reads.`);
  const chunks: Uint8Array[] = [];
  let unpacked = 0;
  let found = false;
  let complete = false;
  let failure: CoreError | undefined;
  const unzipper = new Unzip((file) => {
    if (file.name !== 'export.data' || found) return;
    found = true;
    const declared = file.originalSize ?? 0;
    if (declared > MAX_EXPORT_BYTES) {
      failure = tooLarge(declared);
      return;
    }
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = damaged();
        return;
      }
      unpacked += chunk.length;
      if (unpacked > MAX_EXPORT_BYTES) {
        failure = tooLarge(unpacked);
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) complete = true;
    };
    file.start();
  });
  unzipper.register(UnzipInflate);
  for (let offset = 0, step = 0; offset < bytes.length && !complete; offset += STEP_BYTES, step++) {
    if (step % STEPS_PER_TURN === 0) {
      // A turn of the event loop before each run of steps, the first included: progress and a cancel get in.
      await new Promise((resolve) => setImmediate(resolve));
      throwIfCancelled(signal);
    }
    try {
      unzipper.push(bytes.subarray(offset, offset + STEP_BYTES), offset + STEP_BYTES >= bytes.length);
    } catch {
      throw damaged();
    }
    if (failure) throw failure;
  }
  if (failure) throw failure;
  if (!found) throw notAKnownExport();
  if (!complete) throw damaged();
  return concatBytes(chunks, unpacked);
}

/** What a 1Password item that is not a login is, by its `categoryUuid` (the 1PUX format's list). */
const CATEGORIES: Record<string, string> = {
  '002': 'a credit card',
  '003': 'a secure note',
  '004': 'an identity',
  '005': 'a password without a site',
  '006': 'a document',
  '100': 'a software licence',
  '101': 'a bank account',
  '103': "a driver's licence",
  '106': 'a passport',
  '108': 'a social security number',
  '114': 'an SSH key',
};

function readOnePasswordItem(value: unknown): RowReading {
  let item = objectAt(value);
  // Early 1PUX versions wrapped each item as `{ item: {…} }`.
  if (item && !('categoryUuid' in item) && objectAt(item, 'item')) item = objectAt(item, 'item');
  if (!item) return { skip: 'not a readable item' };
  if (item.trashed === true) return { skip: 'in the trash' };
  const details = objectAt(item, 'details');
  const overview = objectAt(item, 'overview');
  const designated = (designation: string) => {
    const field = arrayAt(details, 'loginFields').find((entry) => objectAt(entry)?.designation === designation && stringAt(objectAt(entry), 'value'));
    return stringAt(objectAt(field), 'value');
  };
  const password = designated('password');
  const category = stringAt(item, 'categoryUuid');
  // Any item with a designated password is a login (a Login, a Database, a Router…); a Login item without one is a login missing it.
  if (password === null && category !== '001') return { skip: category && CATEGORIES[category] ? `${CATEGORIES[category]}, not a login` : 'not a login' };
  const urls = arrayAt(overview, 'urls').map((entry) => stringAt(objectAt(entry), 'url'));
  const changes = arrayAt(details, 'passwordHistory').map((entry) => objectAt(entry)?.time);
  const lastChange = changes.reduce<number | null>((latest, time) => (typeof time === 'number' && Number.isFinite(time) && (latest === null || time > latest) ? time : latest), null);
  return {
    login: {
      title: orNull(stringAt(overview, 'title') ?? undefined),
      url: orNull(stringAt(overview, 'url') || urls.find((url) => url) || undefined),
      username: designated('username') ?? '',
      password: password ?? '',
      passwordChangedAt: lastChange === null ? null : isoFromMillis(lastChange * 1000),
    },
  };
}
