// Export files as each password manager writes them, built in the test from invented logins
// (never a real export). The columns, field names and quoting follow the sources cited in
// electron/core/logins/exports/ (one file per format); each writer says what it copies.
import { strToU8, zipSync } from 'fflate';
import type { LoginExportFormat } from '../../../../shared/ipc/index.ts';

export interface FixtureLogin {
  title: string | null;
  url: string | null;
  username: string;
  password: string;
  /** ISO 8601 UTC, at the precision the format keeps (whole seconds for KeePassXC and 1Password, milliseconds otherwise). */
  passwordChangedAt: string | null;
}

/** A CSV field as the exporters write it: always quoted (KeePassXC) or quoted when needed (Chrome, Firefox, Bitwarden's papaparse); always quoting reads the same. */
export function quote(cell: string): string {
  return `"${cell.replaceAll('"', '""')}"`;
}

export function csv(rows: readonly (readonly string[])[], lineEnd = '\r\n'): string {
  return rows.map((row) => row.map(quote).join(',') + lineEnd).join('');
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const millis = (iso: string | null) => (iso === null ? '' : String(Date.parse(iso)));
const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export const CHROME_HEADER = ['name', 'url', 'username', 'password', 'note'];
export const FIREFOX_HEADER = ['url', 'username', 'password', 'httpRealm', 'formActionOrigin', 'guid', 'timeCreated', 'timeLastUsed', 'timePasswordChanged'];
export const BITWARDEN_CSV_HEADER = ['folder', 'favorite', 'type', 'name', 'notes', 'fields', 'reprompt', 'login_uri', 'login_username', 'login_password', 'login_totp'];
export const ONEPASSWORD_CSV_HEADER = ['Title', 'Url', 'Username', 'Password', 'OTPAuth', 'Favorite', 'Archived', 'Tags', 'Notes'];
export const KEEPASSXC_HEADER = ['Group', 'Title', 'Username', 'Password', 'URL', 'Notes', 'TOTP', 'Icon', 'Last Modified', 'Created'];

export const chromeRow = (l: FixtureLogin) => [l.title ?? '', l.url ?? '', l.username, l.password, ''];
export const firefoxRow = (l: FixtureLogin, index: number) => [
  l.url ?? '',
  l.username,
  l.password,
  '',
  l.url ?? '',
  `{${String(index).padStart(8, '0')}-0000-4000-8000-000000000000}`,
  '1600000000000',
  '1700000000000',
  millis(l.passwordChangedAt),
];
export const bitwardenCsvRow = (l: FixtureLogin) => ['', '', 'login', l.title ?? '', '', '', '0', l.url ?? '', l.username, l.password, ''];
export const onePasswordCsvRow = (l: FixtureLogin) => [l.title ?? '', l.url ?? '', l.username, l.password, '', 'false', 'false', '', ''];
export const keepassxcRow = (l: FixtureLogin) => [
  'Root/Web',
  l.title ?? '',
  l.username,
  l.password,
  l.url ?? '',
  '',
  '',
  '0',
  l.passwordChangedAt === null ? '' : l.passwordChangedAt.replace(/\.\d{3}Z$/, 'Z'),
  '2020-01-01T00:00:00Z',
];

/** A Bitwarden cipher of the unencrypted JSON export (libs/common/src/models/export/cipher.export.ts, login.export.ts). */
export function bitwardenItem(l: FixtureLogin, index: number): Record<string, unknown> {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    organizationId: null,
    folderId: null,
    type: 1,
    reprompt: 0,
    name: l.title ?? '',
    notes: null,
    favorite: false,
    login: { uris: l.url === null ? [] : [{ match: null, uri: l.url }], username: l.username, password: l.password, totp: null, passwordRevisionDate: l.passwordChangedAt },
    collectionIds: null,
    revisionDate: '2024-01-01T00:00:00.000Z',
    creationDate: '2020-01-01T00:00:00.000Z',
    deletedDate: null,
  };
}

export function bitwardenJson(items: readonly unknown[]): string {
  return JSON.stringify({ encrypted: false, folders: [], items }, null, 2);
}

/** A 1PUX Login item (support.1password.com/1pux-format): designated login fields, overview URLs, password history in seconds. */
export function onePasswordItem(l: FixtureLogin, index: number): Record<string, unknown> {
  return {
    uuid: `item${index}`,
    favIndex: 0,
    createdAt: 1600000000,
    updatedAt: 1750000000,
    state: 'active',
    categoryUuid: '001',
    details: {
      loginFields: [
        { value: l.username, id: '', name: 'username', fieldType: 'T', designation: 'username' },
        { value: l.password, id: '', name: 'password', fieldType: 'P', designation: 'password' },
      ],
      notesPlain: '',
      sections: [],
      passwordHistory:
        l.passwordChangedAt === null
          ? []
          : [
              { value: `earlier-${index}`, time: seconds(l.passwordChangedAt) - 86400 * 30 },
              { value: `previous-${index}`, time: seconds(l.passwordChangedAt) },
            ],
    },
    overview: { subtitle: l.username, urls: l.url === null ? [] : [{ label: '', url: l.url }], title: l.title ?? '', url: l.url ?? '', ps: 0, pbe: 0, pgrng: false },
  };
}

export function onePux(items: readonly unknown[], extra: Record<string, Uint8Array> = {}): Uint8Array {
  const data = {
    accounts: [
      {
        attrs: { accountName: 'Alice', name: 'Alice', avatar: '', email: 'alice@example.com', uuid: 'ACCOUNT1', domain: 'https://my.1password.com/' },
        vaults: [{ attrs: { uuid: 'vault1', desc: '', avatar: '', name: 'Personal', type: 'P' }, items }],
      },
    ],
  };
  return zipSync({
    'export.attributes': strToU8(JSON.stringify({ version: 3, description: '1Password Unencrypted Export', createdAt: 1750000000 })),
    'export.data': strToU8(JSON.stringify(data)),
    ...extra,
  });
}

/** The file each format's exporter would write for these logins. */
export function writeExport(format: LoginExportFormat, logins: readonly FixtureLogin[]): Uint8Array {
  switch (format) {
    case 'chrome-csv':
      return utf8(csv([CHROME_HEADER, ...logins.map(chromeRow)]));
    case 'firefox-csv':
      return utf8(csv([FIREFOX_HEADER, ...logins.map(firefoxRow)]));
    case 'bitwarden-csv':
      return utf8(csv([BITWARDEN_CSV_HEADER, ...logins.map(bitwardenCsvRow)], '\n'));
    case '1password-csv':
      return utf8(csv([ONEPASSWORD_CSV_HEADER, ...logins.map(onePasswordCsvRow)]));
    case 'keepassxc-csv':
      return utf8(csv([KEEPASSXC_HEADER, ...logins.map(keepassxcRow)], '\n'));
    case 'bitwarden-json':
      return utf8(bitwardenJson(logins.map(bitwardenItem)));
    case '1password-1pux':
      return onePux(logins.map(onePasswordItem));
  }
}

/** What each format keeps of a login: Firefox has no title; only Firefox, KeePassXC, Bitwarden JSON and 1PUX carry a date. */
export function keptOf(format: LoginExportFormat, l: FixtureLogin): FixtureLogin {
  const dated = format === 'firefox-csv' || format === 'keepassxc-csv' || format === 'bitwarden-json' || format === '1password-1pux';
  return { ...l, title: format === 'firefox-csv' ? null : l.title, passwordChangedAt: dated ? l.passwordChangedAt : null };
}
