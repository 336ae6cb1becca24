// TEMPORARY, tests only: a tiny reader of Chrome's and Firefox's CSV exports, standing in until
// the real one (electron/core/logins/exports/readLoginExport.ts, another branch) is merged. It
// reads only what these tests write (CRLF rows, test/support/csv.ts) and is never used by the app.
import { CoreError, type SkippedRow } from '../../../shared/ipc/index.ts';
import type { ReadExport } from '../../../electron/core/logins/Logins.ts';
import type { ExportedLoginLike } from '../../../electron/core/logins/planImport.ts';
import { parseCsv } from '../../support/csv.ts';

export const MAX_TEST_EXPORT_BYTES = 64 * 1024 * 1024;

export const readExportForTests: ReadExport = async (bytes, options) => {
  const rows = parseCsv(new TextDecoder().decode(bytes));
  const header = rows[0]?.join(',');
  const firefox = header === 'url,username,password,httpRealm,formActionOrigin,guid,timeCreated,timeLastUsed,timePasswordChanged';
  if (!firefox && header !== 'name,url,username,password,note') throw new CoreError('invalid-arguments', 'Not an export these tests write.');
  const logins: ExportedLoginLike[] = [];
  const skippedRows: SkippedRow[] = [];
  for (let i = 1; i < rows.length; i++) {
    if (options?.signal?.aborted) throw new CoreError('cancelled', 'The import was cancelled.');
    const row = rows[i]!;
    const [url, username, password, changed] = firefox ? [row[0], row[1], row[2], row[8]] : [row[1], row[2], row[3], undefined];
    if (!password) {
      skippedRows.push({ row: i + 1, reason: `row ${i + 1}: no password` });
      continue;
    }
    logins.push({
      row: i + 1,
      title: firefox ? null : (row[0] ?? null),
      url: url ?? null,
      username: username ?? '',
      password,
      passwordChangedAt: changed ? new Date(Number(changed)).toISOString() : null,
    });
    options?.onProgress?.(i, rows.length - 1);
  }
  return { format: firefox ? 'firefox-csv' : 'chrome-csv', logins, skipped: skippedRows.length, skippedRows };
};
