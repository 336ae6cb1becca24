import type { Database } from 'better-sqlite3';

/** One forward-only step of the account database schema; `version` steps by 10. */
export interface Migration {
  version: number;
  name: string;
  up(db: Database): void;
}
