import { isoFromText, orNull } from './exportedLogin.ts';
import type { CsvFormat } from './csvFormat.ts';

/**
 * KeePassXC's "Export to CSV": `Group,Title,Username,Password,URL,Notes,TOTP,Icon,Last Modified,
 * Created`, every field quoted, the times as Qt's ISO 8601 in UTC (`2024-05-01T12:30:00Z`)
 * (keepassxreboot/keepassxc, src/format/CsvExporter.cpp, exportHeader and exportGroup; versions
 * before 2.7 wrote only the first six columns).
 *
 * The password's change date is `Last Modified`: KeePassXC's CSV has no date of the password
 * itself, and an entry's last change is the latest its password can have changed. It can be
 * later than the password's real change (an edited note moves it), so a breach between the two
 * reads as "changed since"; the entry's history in KeePassXC tells the truth. No column, no date.
 */
export const keepassxcCsv: CsvFormat = {
  format: 'keepassxc-csv',
  required: ['group', 'title', 'username', 'password', 'url', 'notes'],
  optional: ['totp', 'icon', 'last modified', 'created'],
  read: (cell) => ({
    login: { title: orNull(cell('title')), url: orNull(cell('url')), username: cell('username'), password: cell('password'), passwordChangedAt: isoFromText(cell('last modified')) },
  }),
};
