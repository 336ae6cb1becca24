import type { z } from 'zod';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';

/**
 * A setting read through its schema: a value this version cannot read (written by another
 * version, or edited by hand) falls back to the default instead of breaking start-up.
 */
export function getSetting<T extends z.ZodType>(db: ReadableDB, key: string, schema: T, fallback: z.infer<T>): z.infer<T> {
  const text = statement(db, 'SELECT value FROM settings WHERE key = ?').pluck().get(key) as string | undefined;
  if (text === undefined) return fallback;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : fallback;
}

export function setSetting<T extends z.ZodType>(db: WritableDB, key: string, schema: T, value: z.input<T>): void {
  const checked = schema.parse(value);
  statement(db, 'INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, JSON.stringify(checked));
}
