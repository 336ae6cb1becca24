import { orNull } from './exportedLogin.ts';
import type { CsvFormat } from './csvFormat.ts';

/**
 * Chrome's (and Edge's, the same code) "Export passwords": `name,url,username,password`, and
 * `note` since password notes (Chromium, components/password_manager/core/browser/export/
 * password_csv_writer.cc: kTitleColumnName … kNoteColumnName). No dates: when the password
 * changed is unknown. Android apps' rows have an `android://…` address; they are kept (their
 * site is matched, or not, by the import).
 */
export const chromeCsv: CsvFormat = {
  format: 'chrome-csv',
  required: ['name', 'url', 'username', 'password'],
  optional: ['note'],
  read: (cell) => ({ login: { title: orNull(cell('name')), url: orNull(cell('url')), username: cell('username'), password: cell('password'), passwordChangedAt: null } }),
};
