import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** A folder only its owner may enter, whatever mode it had before (`mkdir` leaves an existing one alone). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Prepares a SQLite file holding private data (tokens, grants, resolutions): its folder 0700,
 * the file itself and any WAL/shared-memory companions 0600. SQLite gives the companions it
 * creates later the database file's mode, so creating the file 0600 first covers them too.
 */
export function preparePrivateDatabaseFile(file: string): void {
  ensurePrivateDir(dirname(file));
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) if (existsSync(path)) chmodSync(path, 0o600);
}
