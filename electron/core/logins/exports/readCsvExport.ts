import { finished } from 'node:stream/promises';
import { Parser } from 'csv-parse';
import type { CsvFormat } from './csvFormat.ts';
import { columnName, detectCsvFormat, notAKnownExport } from './detectExportFormat.ts';
import { ExportRows, type ParsedExport } from './exportedLogin.ts';
import { ROWS_PER_TURN, yieldTurn, type ReadOptions } from './readOptions.ts';

/** Bytes handed to the CSV parser between two turns of the event loop: about a thousand rows of a typical export. */
const CHUNK_BYTES = 64 * 1024;

/**
 * A CSV export, read in two passes: the records (RFC 4180 as csv-parse reads it, in chunks, the
 * format known from the header as soon as it is read), then each data row as a login of that
 * format. Tolerant as spreadsheets are: a quote inside an unquoted field is data, lines may end
 * in CRLF, LF or CR, empty lines are no rows. A row with another number of fields than the
 * header is skipped, not guessed at. Fields are kept verbatim: `=cmd|…` is text here, never a formula.
 */
export async function readCsvExport(utf8: Uint8Array, options: ReadOptions): Promise<ParsedExport> {
  const { records, format, unclosedQuote } = await readRecords(utf8, options);
  const header = records[0];
  if (!header || !format) throw notAKnownExport();

  const dataRows = records.length - 1 + (unclosedQuote ? 1 : 0);
  options.onProgress?.(0, dataRows);
  const rows = new ExportRows('row');
  const column = new Map(header.map((cell, index) => [columnName(cell), index]));
  for (let row = 1; row < records.length; row++) {
    const record = records[row]!;
    if (record.length !== header.length) rows.skip(row, `has ${fields(record.length)} where the header has ${header.length}`);
    else
      rows.add(
        row,
        format.read((name) => record[column.get(name) ?? -1] ?? ''),
      );
    if (row % ROWS_PER_TURN === 0) {
      options.onProgress?.(row, dataRows);
      await yieldTurn(options.signal);
    }
  }
  // csv-parse stops at a quote that never closes: the rest of the file is inside it, one field.
  if (unclosedQuote) rows.skip(records.length, 'a quote opened in this row is never closed, so this row and the lines after it could not be read');
  options.onProgress?.(dataRows, dataRows);
  return rows.result(format.format);
}

function fields(count: number): string {
  return count === 1 ? '1 field' : `${count} fields`;
}

interface Records {
  records: string[][];
  /** Known from the first record, the header; null when the file has no complete record. */
  format: CsvFormat | null;
  /** The file ended inside a quoted field. */
  unclosedQuote: boolean;
}

async function readRecords(utf8: Uint8Array, options: ReadOptions): Promise<Records> {
  const records: string[][] = [];
  let format: CsvFormat | null = null;
  // Records are taken as they are parsed, in order, and none reaches the stream's readable side.
  const parser = new Parser({
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    on_record: (record: string[]) => {
      records.push(record);
      return null;
    },
  });
  parser.resume();
  const ended = finished(parser).then(
    () => null,
    (error: unknown) => error,
  );
  for (let offset = 0; offset < utf8.length; offset += CHUNK_BYTES) {
    const failed = await new Promise<unknown>((resolve) => parser.write(utf8.subarray(offset, offset + CHUNK_BYTES), resolve));
    if (failed) break;
    // Known as soon as the header is in: a file of another shape is refused before the rest is parsed.
    if (format === null && records.length > 0 && (format = detectCsvFormat(records[0]!)) === null) {
      parser.destroy();
      throw notAKnownExport();
    }
    options.onProgress?.(Math.max(0, records.length - 1), null);
    try {
      await yieldTurn(options.signal);
    } catch (cancelled) {
      parser.destroy();
      throw cancelled;
    }
  }
  if (!parser.destroyed) parser.end();
  const error = await ended;
  // A header longer than a chunk is only complete now.
  if (format === null && records.length > 0 && (format = detectCsvFormat(records[0]!)) === null) throw notAKnownExport();
  if (error === null) return { records, format, unclosedQuote: false };
  // With quotes and column counts relaxed, the one error left is a quote still open at the end.
  if ((error as { code?: unknown }).code === 'CSV_QUOTE_NOT_CLOSED') return { records, format, unclosedQuote: true };
  // Never csv-parse's message: it quotes the field it stopped in, which may be a password.
  throw notAKnownExport();
}
