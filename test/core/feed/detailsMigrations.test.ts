// The details feed's file (`catalog-details.db`) under the project's one migration runner: a file
// written before versioned migrations (tables made with IF NOT EXISTS on every open, user_version
// 0) is adopted with its data; a table of the same name with another schema, and a file from a
// newer app, are refused in words rather than opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import type { BreachDetails } from '../../../shared/catalog/index.ts';

// What the store ran on every open before its migration list: the schema such files hold.
const UNVERSIONED_SCHEMA = `
  CREATE TABLE IF NOT EXISTS details (id TEXT PRIMARY KEY, details TEXT NOT NULL CHECK (json_valid(details))) STRICT, WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS feed_state (only INTEGER PRIMARY KEY CHECK (only = 1), url TEXT NOT NULL, etag TEXT, synced_at TEXT NOT NULL, count INTEGER NOT NULL) STRICT;
`;
const ENTRY: BreachDetails = {
  title: 'Adobe',
  domain: 'adobe.com',
  breachDate: '2013-10-04',
  addedDate: '2013-12-04T00:00:00Z',
  modifiedDate: '2022-05-15T23:52:49Z',
  pwnCount: 152445165,
  description: 'In October 2013, 153 million Adobe accounts were breached.',
  logoPath: 'https://logos.haveibeenpwned.com/Adobe.png',
  dataClasses: ['Email addresses', 'Passwords'],
  isVerified: true,
  isFabricated: false,
  isSensitive: false,
  isRetired: false,
  isSpamList: false,
  isMalware: false,
  isStealerLog: false,
};

const dirs: string[] = [];
function file(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'details-migrations-'));
  dirs.push(dir);
  return path.join(dir, 'catalog-details.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function raw(at: string, run: (db: Database.Database) => void): void {
  const db = new Database(at);
  try {
    run(db);
  } finally {
    db.close();
  }
}

describe('catalog-details.db migrations', () => {
  it('a new file is at version 10 with the two tables', () => {
    const at = file();
    new DetailsStore(at).close();
    raw(at, (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(10);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual(['details', 'feed_state']);
    });
  });

  it('adopts a file written before versioned migrations, with its entries and its ETag', () => {
    const at = file();
    raw(at, (db) => {
      db.exec(UNVERSIONED_SCHEMA);
      db.prepare('INSERT INTO details (id, details) VALUES (?, ?)').run('Adobe', JSON.stringify(ENTRY));
      db.prepare('INSERT INTO feed_state (only, url, etag, synced_at, count) VALUES (1, ?, ?, ?, 1)').run('http://127.0.0.1:6060/rtdb', '"e1"', '2026-11-26T09:00:00.000Z');
    });
    const store = new DetailsStore(at);
    try {
      expect(store.state()).toEqual({ url: 'http://127.0.0.1:6060/rtdb', etag: '"e1"', syncedAt: '2026-11-26T09:00:00.000Z', count: 1 });
      expect(store.get('Adobe')).toEqual(ENTRY);
    } finally {
      store.close();
    }
    raw(at, (db) => expect(db.pragma('user_version', { simple: true })).toBe(10));
  });

  it('refuses a table of that name with another schema, and leaves the file as it was', () => {
    const at = file();
    raw(at, (db) => db.exec('CREATE TABLE details (id TEXT, body TEXT)'));
    expect(() => new DetailsStore(at)).toThrow(/details exists but is not the schema this version adopts/);
    raw(at, (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(0);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all()).toEqual(['details']);
    });
  });

  it('refuses a file from a newer app, saying what to do', () => {
    const at = file();
    raw(at, (db) => db.pragma('user_version = 20'));
    expect(() => new DetailsStore(at)).toThrow(/schema version 20, newer than this app knows \(latest 10\); update Breach Monitor, or remove that file/);
  });
});
