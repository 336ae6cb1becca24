import { isoFromMillisText, orNull } from './exportedLogin.ts';
import type { CsvFormat } from './csvFormat.ts';

/**
 * Firefox's about:logins "Export Logins…": `url,username,password,httpRealm,formActionOrigin,
 * guid,timeCreated,timeLastUsed,timePasswordChanged`, the times in milliseconds since the epoch
 * (mozilla/gecko-dev toolkit/components/passwordmgr/LoginExport.sys.mjs writes them; its reader,
 * LoginCSVImport.sys.mjs, matches the names in any letter case). Firefox sets
 * `timePasswordChanged` when a login is saved and each time its password changes.
 *
 * The row whose address is `chrome://FirefoxAccounts` is Firefox's own sync key, not an account
 * at a site (Bitwarden's importer drops it too): skipped, said so.
 */
export const firefoxCsv: CsvFormat = {
  format: 'firefox-csv',
  required: ['url', 'username', 'password', 'httprealm', 'formactionorigin', 'guid', 'timecreated', 'timelastused', 'timepasswordchanged'],
  optional: [],
  read: (cell) => {
    if (cell('url').toLowerCase() === 'chrome://firefoxaccounts') return { skip: "Firefox's own sync key, not an account at a site" };
    return { login: { title: null, url: orNull(cell('url')), username: cell('username'), password: cell('password'), passwordChangedAt: isoFromMillisText(cell('timepasswordchanged')) } };
  },
};
