import { orNull } from './exportedLogin.ts';
import type { CsvFormat } from './csvFormat.ts';

/**
 * Bitwarden's "Export vault" as `.csv`: `folder,favorite,type,name,notes,fields,reprompt,
 * login_uri,login_username,login_password,login_totp` for a personal vault, `collections`
 * instead of `folder` for an organisation's (bitwarden/clients, libs/tools/export/vault-export/
 * vault-export-core: BitwardenCsvIndividualExportType, BitwardenCsvOrgExportType; older
 * versions lack `reprompt`). The CSV holds logins (`type` `login`) and secure notes (`note`);
 * a login with several addresses has them joined by commas in `login_uri` (Bitwarden's own
 * importer splits them the same way): the first is the one kept. No dates in the CSV.
 */
export const bitwardenCsv: CsvFormat = {
  format: 'bitwarden-csv',
  required: ['type', 'name', 'notes', 'fields', 'login_uri', 'login_username', 'login_password', 'login_totp'],
  optional: ['folder', 'collections', 'favorite', 'reprompt'],
  read: (cell) => {
    const type = cell('type');
    if (type === 'note') return { skip: 'a secure note, not a login' };
    if (type !== 'login') return { skip: 'not a login' };
    const firstUri = cell('login_uri')
      .split(',')
      .find((uri) => uri !== '');
    return { login: { title: orNull(cell('name')), url: orNull(firstUri), username: cell('login_username'), password: cell('login_password'), passwordChangedAt: null } };
  },
};
