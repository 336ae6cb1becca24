import { orNull } from './exportedLogin.ts';
import type { CsvFormat } from './csvFormat.ts';

/**
 * 1Password 8's "Export" as CSV: `Title,Url,Username,Password,OTPAuth,Favorite,Archived,Tags,
 * Notes` (support.1password.com/export: the CSV carries Login and Password items with title,
 * website, username, one-time password, favourite and archived state, tags and notes; every
 * importer that reads it, Bitwarden's included, matches these nine names). Archived items are
 * accounts still: kept. No dates in the CSV; the `.1pux` export has them.
 */
export const onePasswordCsv: CsvFormat = {
  format: '1password-csv',
  required: ['title', 'url', 'username', 'password', 'otpauth', 'favorite', 'archived', 'tags', 'notes'],
  optional: [],
  read: (cell) => ({ login: { title: orNull(cell('title')), url: orNull(cell('url')), username: cell('username'), password: cell('password'), passwordChangedAt: null } }),
};
