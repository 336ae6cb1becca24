import type { LoginExportFormat } from '../../../../shared/ipc/index.ts';
import type { RowReading } from './exportedLogin.ts';

/** The value of a column by its header name (lower case); '' for an optional column the file does not have. */
export type CsvCell = (column: string) => string;

/**
 * A CSV export, known by its header row: the columns every export of it has (`required`), the
 * ones some versions add (`optional`), in any order and any letter case. A header with another
 * column is another format: that is what tells Chrome's four columns from the many files that
 * also have a `url` and a `password`.
 */
export interface CsvFormat {
  format: LoginExportFormat;
  required: readonly string[];
  optional: readonly string[];
  read(cell: CsvCell): RowReading;
}
