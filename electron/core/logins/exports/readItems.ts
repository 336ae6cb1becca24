import type { LoginExportFormat } from '../../../../shared/ipc/index.ts';
import { ExportRows, type ParsedExport, type RowReading } from './exportedLogin.ts';
import { ROWS_PER_TURN, yieldTurn, type ReadOptions } from './readOptions.ts';

/** The items of a JSON export, each read as a login or skipped with its reason, numbered 1, 2, … in file order. */
export async function readItems(format: LoginExportFormat, items: readonly unknown[], read: (item: unknown) => RowReading, options: ReadOptions): Promise<ParsedExport> {
  const rows = new ExportRows('item');
  options.onProgress?.(0, items.length);
  for (let index = 0; index < items.length; index++) {
    rows.add(index + 1, read(items[index]));
    if ((index + 1) % ROWS_PER_TURN === 0) {
      options.onProgress?.(index + 1, items.length);
      await yieldTurn(options.signal);
    }
  }
  options.onProgress?.(items.length, items.length);
  return rows.result(format);
}

/** The object at a key of a parsed JSON value, or null: an export's fields are read only where they have the type the format gives them. */
export function objectAt(value: unknown, key?: string): Record<string, unknown> | null {
  const inner = key === undefined ? value : typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : null;
}

export function stringAt(value: Record<string, unknown> | null, key: string): string | null {
  const inner = value?.[key];
  return typeof inner === 'string' ? inner : null;
}

export function arrayAt(value: Record<string, unknown> | null, key: string): readonly unknown[] {
  const inner = value?.[key];
  return Array.isArray(inner) ? inner : [];
}
