import { rmSync } from 'node:fs';
import type { AccessTokenSource } from '../api/AccessTokenSource.ts';
import { accountDatabasePath } from '../db/openAccountDatabase.ts';
import { openAccountSync, type AccountSync } from '../sync/openAccountSync.ts';

export interface AccountRef {
  accountId: string;
  issuer: string;
  subject: string;
}

/**
 * The local side of one signed-in account: its database, outbox and sync scheduler. It stays
 * open while the account needs to sign in again, so the person can keep reviewing and
 * resolving offline; it closes on sign-out or when another account signs in.
 */
export class AccountSession {
  readonly account: AccountRef;
  readonly sync: AccountSync;
  readonly file: string;

  private constructor(account: AccountRef, sync: AccountSync, file: string) {
    this.account = account;
    this.sync = sync;
    this.file = file;
  }

  static open(options: { dataDir: string; account: AccountRef; apiBaseUrl: string; tokens: AccessTokenSource; fetch?: typeof fetch }): AccountSession {
    const file = accountDatabasePath(options.dataDir, options.account.issuer, options.account.subject);
    const sync = openAccountSync({ file, apiBaseUrl: options.apiBaseUrl, tokens: options.tokens, ...(options.fetch ? { fetch: options.fetch } : {}) });
    return new AccountSession(options.account, sync, file);
  }

  get db() {
    return this.sync.database.db;
  }

  close(): Promise<void> {
    return this.sync.close();
  }
}

/** Removes an account's database and its WAL files (sign-out with "also delete local data"). */
export function deleteAccountDatabase(dataDir: string, account: AccountRef): void {
  const file = accountDatabasePath(dataDir, account.issuer, account.subject);
  for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
}
