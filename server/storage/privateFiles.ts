// SQLite files are opened through engine/db/openPrivateDatabase.ts, which makes them private.
import { chmodSync, mkdirSync } from 'node:fs';

/** A folder only its owner may enter, whatever mode it had before (`mkdir` leaves an existing one alone). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}
