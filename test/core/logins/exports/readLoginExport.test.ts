// Reading each password manager's export: one fixture per format, built here from invented
// logins (exportWriters.ts), checked for its counts, fields, dates and skipped rows; then the
// file-level refusals (another shape, empty, too large, not text, encrypted) and cancelling.
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CoreError, LOGIN_EXPORT_FORMAT_NAMES, LoginExportFormat } from '../../../../shared/ipc/index.ts';
import { MAX_EXPORT_BYTES, readLoginExport } from '../../../../electron/core/logins/exports/readLoginExport.ts';
import {
  BITWARDEN_CSV_HEADER,
  bitwardenItem,
  bitwardenJson,
  CHROME_HEADER,
  chromeRow,
  csv,
  FIREFOX_HEADER,
  firefoxRow,
  KEEPASSXC_HEADER,
  keepassxcRow,
  ONEPASSWORD_CSV_HEADER,
  onePasswordItem,
  onePux,
  writeExport,
  type FixtureLogin,
} from './exportWriters.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

const ALICE: FixtureLogin = { title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: '2023-04-05T06:07:08.000Z' };
const BOB: FixtureLogin = { title: 'Shop, Inc.', url: 'https://shop.example.org/', username: 'bob', password: 'pa"ss,word\nwith lines', passwordChangedAt: null };

async function refusal(bytes: Uint8Array, options?: Parameters<typeof readLoginExport>[1]): Promise<CoreError> {
  const error = await readLoginExport(bytes, options).then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CoreError);
  return error as CoreError;
}

describe('Chrome and Edge passwords (CSV)', () => {
  it('reads name, url, username, password, with or without the note column, in any column order', async () => {
    const parsed = await readLoginExport(writeExport('chrome-csv', [ALICE, BOB]));
    expect(parsed.format).toBe('chrome-csv');
    expect(parsed.logins).toEqual([
      { row: 1, title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: null },
      { row: 2, title: 'Shop, Inc.', url: 'https://shop.example.org/', username: 'bob', password: 'pa"ss,word\nwith lines', passwordChangedAt: null },
    ]);
    expect(parsed.skipped).toBe(0);

    // Before password notes, Chrome wrote four columns; the order is the header's, not assumed.
    const older = await readLoginExport(utf8('url,password,name,username\nhttps://example.com,s3cret,Example,alice@example.com\n'));
    expect(older.logins).toEqual([{ row: 1, title: 'Example', url: 'https://example.com', username: 'alice@example.com', password: 's3cret', passwordChangedAt: null }]);
  });

  it('skips a row without a password and a row of another length, by number and reason, and keeps the rest', async () => {
    const file = csv([CHROME_HEADER, chromeRow(ALICE), ['Empty', 'https://empty.example', 'carol', '', ''], ['short', 'row'], chromeRow(BOB)]);
    const parsed = await readLoginExport(utf8(file));
    expect(parsed.logins.map((login) => login.row)).toEqual([1, 4]);
    expect(parsed.skipped).toBe(2);
    expect(parsed.skippedRows).toEqual([
      { row: 2, reason: 'row 2: no password' },
      { row: 3, reason: 'row 3: has 2 fields where the header has 5' },
    ]);
  });
});

describe('Firefox logins (CSV)', () => {
  it('reads timePasswordChanged (milliseconds since the epoch) as the change date, and has no title', async () => {
    const parsed = await readLoginExport(writeExport('firefox-csv', [ALICE, BOB]));
    expect(parsed.format).toBe('firefox-csv');
    expect(parsed.logins[0]).toEqual({
      row: 1,
      title: null,
      url: 'https://example.com/login',
      username: 'alice@example.com',
      password: 'correct horse 1',
      passwordChangedAt: '2023-04-05T06:07:08.000Z',
    });
    expect(parsed.logins[1]!.passwordChangedAt).toBeNull();
  });

  it("skips Firefox's own sync key row, and reads a zero or a word in timePasswordChanged as unknown", async () => {
    const key = ['chrome://FirefoxAccounts', 'uid', '{"kSync":"x"}', 'Firefox Accounts credentials', '', '{guid-key}', '1', '1', '1'];
    const zero = firefoxRow({ ...ALICE, passwordChangedAt: null }, 2).map((cell, index) => (index === 8 ? '0' : cell));
    const word = firefoxRow({ ...ALICE, passwordChangedAt: null }, 3).map((cell, index) => (index === 8 ? 'yesterday' : cell));
    const parsed = await readLoginExport(utf8(csv([FIREFOX_HEADER, key, zero, word])));
    expect(parsed.skippedRows).toEqual([{ row: 1, reason: "row 1: Firefox's own sync key, not an account at a site" }]);
    expect(parsed.logins.map((login) => [login.row, login.passwordChangedAt])).toEqual([
      [2, null],
      [3, null],
    ]);
  });
});

describe('Bitwarden (CSV)', () => {
  it('reads logins, skips secure notes, keeps the first of several addresses; an organisation export has collections', async () => {
    const note = ['', '', 'note', 'Wi-Fi', 'the code is 1234', '', '0', '', '', '', ''];
    const twoUris = ['Work', '1', 'login', 'Mail', '', '', '0', 'https://mail.example.com,https://example.com', 'alice', 'm4il!', ''];
    const parsed = await readLoginExport(utf8(csv([BITWARDEN_CSV_HEADER, note, twoUris])));
    expect(parsed.format).toBe('bitwarden-csv');
    expect(parsed.logins).toEqual([{ row: 2, title: 'Mail', url: 'https://mail.example.com', username: 'alice', password: 'm4il!', passwordChangedAt: null }]);
    expect(parsed.skippedRows).toEqual([{ row: 1, reason: 'row 1: a secure note, not a login' }]);

    const organisation = BITWARDEN_CSV_HEADER.map((column) => (column === 'folder' ? 'collections' : column)).filter((column) => column !== 'favorite');
    const org = await readLoginExport(utf8(csv([organisation, ['Team', 'login', 'CI', '', '', '0', 'https://ci.example.com', 'bot', 'b0t', '']])));
    expect(org.logins).toHaveLength(1);
  });
});

describe('Bitwarden (JSON, unencrypted)', () => {
  it('reads type 1 items, passwordRevisionDate as the change date (null stays unknown), and names the other types it skips', async () => {
    const card = { ...bitwardenItem(ALICE, 9), type: 3, login: undefined, card: { number: '4111111111111111' } };
    const note = { ...bitwardenItem(ALICE, 8), type: 2, login: undefined, secureNote: { type: 0 } };
    const parsed = await readLoginExport(utf8(bitwardenJson([bitwardenItem(ALICE, 1), card, note, bitwardenItem(BOB, 2), 'junk'])));
    expect(parsed.format).toBe('bitwarden-json');
    expect(parsed.logins).toEqual([
      { row: 1, title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: '2023-04-05T06:07:08.000Z' },
      { row: 4, title: 'Shop, Inc.', url: 'https://shop.example.org/', username: 'bob', password: 'pa"ss,word\nwith lines', passwordChangedAt: null },
    ]);
    expect(parsed.skippedRows).toEqual([
      { row: 2, reason: 'item 2: a card, not a login' },
      { row: 3, reason: 'item 3: a secure note, not a login' },
      { row: 5, reason: 'item 5: not a readable item' },
    ]);
  });

  it('refuses an encrypted export with its own sentence: export again as unencrypted', async () => {
    const accountRestricted = { encrypted: true, encKeyValidation_DO_NOT_EDIT: '2.abc|def|ghi', folders: [], items: [{ type: 1, name: '2.xyz|uvw|rst' }] };
    const passwordProtected = { encrypted: true, passwordProtected: true, salt: 'c2FsdA==', kdfType: 0, kdfIterations: 600000, encKeyValidation_DO_NOT_EDIT: '2.a|b|c', data: '2.d|e|f' };
    for (const file of [accountRestricted, passwordProtected]) {
      const error = await refusal(utf8(JSON.stringify(file)));
      expect(error.code).toBe('invalid-arguments');
      expect(error.message).toBe('This Bitwarden export is encrypted, and this app cannot open it: export your vault again from Bitwarden choosing the “.json” format, not “.json (Encrypted)”.');
    }
  });
});

describe('1Password (CSV)', () => {
  it('reads the nine columns of 1Password 8, archived items included', async () => {
    const archived = ['Old forum', 'https://forum.example.net', 'alice', 'f0rum', '', 'false', 'true', 'old', ''];
    const parsed = await readLoginExport(utf8('\uFEFF' + csv([ONEPASSWORD_CSV_HEADER, archived])));
    expect(parsed.format).toBe('1password-csv');
    expect(parsed.logins).toEqual([{ row: 1, title: 'Old forum', url: 'https://forum.example.net', username: 'alice', password: 'f0rum', passwordChangedAt: null }]);
  });

  it("is not confused with Apple Passwords' Title,URL,Username,Password,Notes,OTPAuth", async () => {
    const error = await refusal(utf8('Title,URL,Username,Password,Notes,OTPAuth\nA,https://a.example,u,p,,\n'));
    expect(error.message).toMatch(/^This file is not a password export this app can read/);
  });
});

describe('1Password (.1pux)', () => {
  it('reads Login items from every vault, the change date from the password history, and skips the rest by category', async () => {
    const note = { uuid: 'n1', categoryUuid: '003', details: { notesPlain: 'alarm code' }, overview: { title: 'Alarm' } };
    const noPassword = { ...onePasswordItem(ALICE, 5), details: { loginFields: [{ value: 'alice', designation: 'username', fieldType: 'T', name: 'u', id: '' }] } };
    const secondUrl = {
      ...onePasswordItem(BOB, 6),
      overview: {
        title: 'Shop',
        url: '',
        urls: [
          { label: '', url: '' },
          { label: 'website', url: 'https://shop.example.org/' },
        ],
      },
    };
    const trashed = { ...onePasswordItem(ALICE, 7), trashed: true };
    const parsed = await readLoginExport(onePux([onePasswordItem(ALICE, 1), note, noPassword, secondUrl, trashed], { 'files/photo.jpg': new Uint8Array(1000) }));
    expect(parsed.format).toBe('1password-1pux');
    expect(parsed.logins).toEqual([
      { row: 1, title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: '2023-04-05T06:07:08.000Z' },
      { row: 4, title: 'Shop', url: 'https://shop.example.org/', username: 'bob', password: 'pa"ss,word\nwith lines', passwordChangedAt: null },
    ]);
    expect(parsed.skippedRows).toEqual([
      { row: 2, reason: 'item 2: a secure note, not a login' },
      { row: 3, reason: 'item 3: no password' },
      { row: 5, reason: 'item 5: in the trash' },
    ]);
  });

  it('refuses a zip without export.data in the one sentence, and a damaged zip in its own', async () => {
    const other = zipSync({ 'readme.txt': strToU8('hello') });
    expect((await refusal(other)).message).toMatch(/^This file is not a password export this app can read/);
    const damaged = onePux([onePasswordItem(ALICE, 1)]).slice(0, 60);
    expect((await refusal(damaged)).message).toBe('The file is a zip archive that cannot be opened (it may be damaged or cut short). Export it again.');
  });
});

describe('1Password (.1pux) size', () => {
  it('refuses an archive whose export.data says it unpacks to more than the cap, before unpacking it', async () => {
    // A zip bomb: a few kilobytes that claim 300 MB. The sizes are the archive's own (local header offset 22, central directory offset 24; APPNOTE.TXT 4.3.7, 4.3.12).
    const archive = onePux([onePasswordItem(ALICE, 1)]);
    const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
    const claimed = 300 * 1024 * 1024;
    for (let offset = 0; offset + 4 <= archive.length; offset++) {
      const signature = view.getUint32(offset, true);
      const nameAt = signature === 0x04034b50 ? offset + 30 : signature === 0x02014b50 ? offset + 46 : -1;
      if (nameAt >= 0 && new TextDecoder().decode(archive.subarray(nameAt, nameAt + 11)) === 'export.data') view.setUint32(offset + (signature === 0x04034b50 ? 22 : 24), claimed, true);
    }
    const error = await refusal(archive);
    expect(error.code).toBe('invalid-arguments');
    expect(error.message).toBe('The 1Password export holds 300 MB of data once unpacked, more than the 200 MB this app reads.');
  });
});

describe('KeePassXC (CSV)', () => {
  it('reads Last Modified (ISO 8601, UTC) as the change date; the six columns of versions before 2.7 have none', async () => {
    const parsed = await readLoginExport(writeExport('keepassxc-csv', [{ ...ALICE, passwordChangedAt: '2023-04-05T06:07:08.000Z' }]));
    expect(parsed.format).toBe('keepassxc-csv');
    expect(parsed.logins).toEqual([
      { row: 1, title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: '2023-04-05T06:07:08.000Z' },
    ]);

    const older = await readLoginExport(utf8(csv([KEEPASSXC_HEADER.slice(0, 6), keepassxcRow(ALICE).slice(0, 6), ['Root', 'Note only', '', '', '', 'text']], '\n')));
    expect(older.logins).toEqual([{ row: 1, title: 'Example', url: 'https://example.com/login', username: 'alice@example.com', password: 'correct horse 1', passwordChangedAt: null }]);
    expect(older.skippedRows).toEqual([{ row: 2, reason: 'row 2: no password' }]);
  });
});

describe('fields kept verbatim', () => {
  it('keeps formula-looking fields as text, never evaluated or altered', async () => {
    const formula: FixtureLogin = { title: "=cmd|' /C calc'!A0", url: '=HYPERLINK("https://evil.example")', username: '+SUM(1,2)', password: '@A1-1', passwordChangedAt: null };
    const parsed = await readLoginExport(writeExport('chrome-csv', [formula]));
    expect(parsed.logins[0]).toMatchObject({ title: formula.title, url: formula.url, username: formula.username, password: formula.password });
  });

  it('skips a field over its cap with the cap in words, never the content', async () => {
    const long = (n: number) => 'x'.repeat(n);
    const rows = [
      { ...ALICE, password: long(4097) },
      { ...ALICE, url: `https://example.com/${long(2040)}` },
      { ...ALICE, username: long(1025) },
      { ...ALICE, title: long(1025) },
      { ...ALICE, password: long(4096) },
    ];
    const parsed = await readLoginExport(writeExport('chrome-csv', rows));
    expect(parsed.skippedRows.map((skipped) => skipped.reason)).toEqual([
      'row 1: password longer than 4,096 characters',
      'row 2: web address longer than 2,048 characters',
      'row 3: username longer than 1,024 characters',
      'row 4: title longer than 1,024 characters',
    ]);
    expect(parsed.logins.map((login) => login.row)).toEqual([5]);
  });

  it('lists the first 50 skipped rows and counts them all', async () => {
    const rows = Array.from({ length: 120 }, (_, index) => chromeRow({ ...ALICE, password: index % 2 === 0 ? '' : 'p' }));
    const parsed = await readLoginExport(utf8(csv([CHROME_HEADER, ...rows])));
    expect(parsed.skipped).toBe(60);
    expect(parsed.skippedRows).toHaveLength(50);
    expect(parsed.logins).toHaveLength(60);
  });

  it('skips the row where a quote never closes and keeps every row before it', async () => {
    const parsed = await readLoginExport(utf8(csv([CHROME_HEADER, chromeRow(ALICE), chromeRow(BOB)]) + '"Broken,https://x.example,u,p,\nmore,lines,of,the,file\n'));
    expect(parsed.logins.map((login) => login.username)).toEqual(['alice@example.com', 'bob']);
    expect(parsed.skippedRows).toEqual([{ row: 3, reason: 'row 3: a quote opened in this row is never closed, so this row and the lines after it could not be read' }]);
  });
});

describe('encodings', () => {
  const text = csv([CHROME_HEADER, chromeRow({ ...ALICE, title: 'Café ☕ 𝄞', password: 'pässwörd' })]);

  it('reads UTF-8 with and without a byte order mark, and UTF-16 LE and BE with one', async () => {
    const le = new Uint8Array(2 + text.length * 2);
    const be = new Uint8Array(2 + text.length * 2);
    le.set([0xff, 0xfe]);
    be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      le.set([unit & 0xff, unit >> 8], 2 + i * 2);
      be.set([unit >> 8, unit & 0xff], 2 + i * 2);
    }
    for (const bytes of [utf8(text), utf8('\uFEFF' + text), le, be]) {
      const parsed = await readLoginExport(bytes);
      expect(parsed.logins).toEqual([{ row: 1, title: 'Café ☕ 𝄞', url: ALICE.url, username: ALICE.username, password: 'pässwörd', passwordChangedAt: null }]);
    }
  });

  it('refuses text that is not UTF-8 (a Windows-1252 file) with the byte offset where it stops', async () => {
    const latin1 = utf8(text.replace('pässwörd', 'p?sswort'));
    const at = latin1.indexOf('?'.charCodeAt(0));
    latin1[at] = 0xe4; // "ä" in Windows-1252, alone: not UTF-8
    const error = await refusal(latin1);
    expect(error.code).toBe('invalid-arguments');
    expect(error.message).toBe(`The file is not UTF-8 text: the byte at offset ${at} is not part of a valid character. Export it again from the password manager, or save it as UTF-8.`);
  });

  it('refuses UTF-16 with half a surrogate pair or an odd number of bytes', async () => {
    expect((await refusal(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x00, 0xd8, 0x41, 0x00]))).message).toMatch(/character at byte offset 4 is half of a pair/);
    expect((await refusal(new Uint8Array([0xff, 0xfe, 0x41, 0x00, 0x42]))).message).toMatch(/odd number of bytes/);
  });
});

describe('a file that is not an export', () => {
  const sentence = `This file is not a password export this app can read; it reads ${LoginExportFormat.options
    .map((format) => LOGIN_EXPORT_FORMAT_NAMES[format])
    .join(', ')
    .replace(/, ([^,]*)$/, ', and $1')}.`;

  it('gets one sentence naming every known format, whatever its shape', async () => {
    expect(sentence).toContain('Chrome or Edge passwords (CSV)');
    expect(sentence).toContain('KeePassXC (CSV)');
    const files = [
      utf8('url,username,password\nhttps://a.example,u,p\n'),
      utf8('name,url,username,password,extra\n'),
      utf8('name,name,url,username,password\n'),
      utf8('{"accounts": []}'),
      utf8('["not", "an", "export"]'),
      utf8('just some text'),
    ];
    for (const file of files) {
      const error = await refusal(file);
      expect(error.code).toBe('invalid-arguments');
      expect(error.message).toBe(sentence);
    }
  });

  it('an empty file, a truncated JSON file and one over the size cap get their own sentences', async () => {
    for (const empty of [new Uint8Array(0), utf8('\uFEFF'), utf8('\r\n  \n')]) expect((await refusal(empty)).message).toBe('The file is empty: there are no logins in it to import.');
    expect((await refusal(utf8('{"encrypted": false, "items": ['))).message).toMatch(/^The file starts like a JSON export but is not valid JSON/);
    const tooLarge = new Uint8Array(MAX_EXPORT_BYTES + 1);
    expect((await refusal(tooLarge)).message).toBe('The file is 200 MB, more than the 200 MB this app reads from an export.');
  });
});

describe('progress and cancel', () => {
  const many = Array.from({ length: 5000 }, (_, index) => ({ ...ALICE, username: `user${index}@example.com` }));

  it('reports progress, ending with the total', async () => {
    for (const format of ['chrome-csv', 'bitwarden-json'] as const) {
      const reports: [number, number | null][] = [];
      await readLoginExport(writeExport(format, many), { onProgress: (done, total) => reports.push([done, total]) });
      expect(reports.at(-1)).toEqual([5000, 5000]);
      expect(reports.some(([done, total]) => total === 5000 && done > 0 && done < 5000)).toBe(true);
    }
  });

  it('stops with a cancelled CoreError when the signal aborts mid-file, and before starting when already aborted', async () => {
    for (const format of ['chrome-csv', 'bitwarden-json', '1password-1pux'] as const) {
      const controller = new AbortController();
      const error = await refusal(writeExport(format, many), { signal: controller.signal, onProgress: (done) => done > 0 && controller.abort() });
      expect(error.code).toBe('cancelled');
    }
    const error = await refusal(writeExport('chrome-csv', [ALICE]), { signal: AbortSignal.abort() });
    expect(error.code).toBe('cancelled');
  });

  it('stops a .1pux while its archive is being unpacked', async () => {
    // Large enough to take several steps of the unzipper, which yields before its first: the abort lands mid-unpack.
    const large = writeExport(
      '1password-1pux',
      Array.from({ length: 20_000 }, (_, index) => ({ ...ALICE, username: `user${index}@example.com`, password: `pw-${index}-${'x'.repeat(index % 50)}` })),
    );
    const controller = new AbortController();
    const reports: number[] = [];
    const reading = readLoginExport(large, { signal: controller.signal, onProgress: (done) => reports.push(done) });
    controller.abort();
    const error = await reading.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CoreError);
    expect((error as CoreError).code).toBe('cancelled');
    // Not one item was read: it stopped inside the archive, not at the first turn of the item loop.
    expect(reports).toEqual([]);
  });
});
