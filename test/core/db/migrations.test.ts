import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, SchemaTooNewError, schemaVersion } from '../../../electron/core/db/migrate.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from '../../../electron/core/db/migrations/index.ts';
import { accountDatabasePath, openAccountDatabase } from '../../../electron/core/db/openAccountDatabase.ts';
import { FROZEN_NOW } from '../helpers/fixtures.ts';

const opened: Database.Database[] = [];
function emptyDatabase(): Database.Database {
  const db = new Database(':memory:');
  opened.push(db);
  return db;
}
const dirs: string[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tables(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
}

/** Signal's helper: bring a database to exactly `version`. */
function updateToVersion(db: Database.Database, version: number): void {
  migrate(db, { target: version, now: () => FROZEN_NOW });
  expect(schemaVersion(db)).toBe(version);
}

describe('migrate', () => {
  it('steps by 10, in order, and the last is the latest', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => (i + 1) * 10));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version);
  });

  it('refuses a database written by a newer app, with a message a person can act on', () => {
    const db = emptyDatabase();
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 10}`);
    expect(() => migrate(db)).toThrow(SchemaTooNewError);
    expect(() => migrate(db)).toThrow(/newer than this app knows .*update Breach Monitor/);
  });

  it('runs each migration in its own transaction: a failing one leaves the previous version intact', () => {
    const db = emptyDatabase();
    const failing: Migration = {
      version: LATEST_SCHEMA_VERSION + 10,
      name: 'half-done',
      up: (d) => {
        d.exec('CREATE TABLE half_done (x INTEGER)');
        throw new Error('boom');
      },
    };
    expect(() => migrate(db, { migrations: [...MIGRATIONS, failing] })).toThrow('boom');
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(tables(db)).not.toContain('half_done');
    expect(db.prepare('SELECT max(version) FROM schema_migrations').pluck().get()).toBe(LATEST_SCHEMA_VERSION);
  });

  it('refuses an unordered list', () => {
    const up = (): void => {};
    expect(() =>
      migrate(emptyDatabase(), {
        migrations: [
          { version: 20, name: 'b', up },
          { version: 10, name: 'a', up },
        ],
      }),
    ).toThrow(/out of order/);
  });

  it('is a no-op on an up-to-date database', () => {
    const db = emptyDatabase();
    migrate(db);
    expect(migrate(db)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION });
  });
});

describe('migration 10 (initial schema), from version 0', () => {
  it('creates the store and logs itself', () => {
    const db = emptyDatabase();
    updateToVersion(db, 0);
    expect(tables(db)).toEqual([]);
    updateToVersion(db, 10);
    expect(tables(db)).toEqual(['breached_accounts', 'breaches', 'data_class_codes', 'gone_breaches', 'outbox', 'schema_migrations', 'settings', 'sync_state']);
    expect(db.prepare('SELECT version, name, applied_at FROM schema_migrations').all()).toEqual([{ version: 10, name: 'initial-schema', applied_at: FROZEN_NOW.toISOString() }]);
  });

  it('enforces what the code relies on', () => {
    const db = emptyDatabase();
    updateToVersion(db, 10);
    const outbox = db.prepare(
      `INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, state, failure_reason, created_at, updated_at) VALUES (?, 'B', 'passwords', 'Passwords', 1, 1, ?, ?, 'now', 'now')`,
    );
    outbox.run('a@example.com', 'pending', null);
    expect(() => outbox.run('a@example.com', 'pending', null), 'one row per (email, class, breach)').toThrow(/UNIQUE/);
    expect(() => outbox.run('B@example.com', 'pending', null), 'emails stored lower case').toThrow(/CHECK/);
    expect(() => outbox.run('c@example.com', 'failed', null), 'a failed row carries its reason').toThrow(/CHECK/);
    expect(() => outbox.run('d@example.com', 'sent', null)).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO settings VALUES ('k', 'not json')").run()).toThrow(/CHECK/);
  });
});

describe('migration 20 (data class keys are slugs)', () => {
  it('rekeys the dictionary and the outbox, merging spellings of one class', () => {
    const db = emptyDatabase();
    updateToVersion(db, 10);
    db.exec(`
      INSERT INTO data_class_codes (code, key, name) VALUES (1, 'email addresses', 'Email addresses'), (2, 'email-addresses', 'email-addresses'),
        (3, 'passwords', 'Passwords'), (4, 'ip addresses', 'IP addresses');
      INSERT INTO breaches VALUES (1, 'B', 'b.example', 'b.example', '2020-01-01', '2020-02-01T00:00:00Z', 0, '2020-02-01T00:00:00Z',
        '["Email addresses","email-addresses","Passwords"]', ',1,2,3,', 0, ',1,3,', 2);
      INSERT INTO breaches VALUES (2, 'C', 'c.example', 'c.example', '2020-01-01', '2020-02-01T00:00:00Z', 0, '2020-02-01T00:00:00Z',
        '["IP addresses"]', ',4,', 0, ',4,', 1);
      INSERT INTO breached_accounts VALUES (1, 'a@example.com', ',2,', '{"2":"2021-01-01T00:00:00Z"}', ',1,3,', 2);
      INSERT INTO breached_accounts VALUES (2, 'a@example.com', ',', NULL, ',4,', 1);
      INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, state, failure_reason, created_at, updated_at) VALUES
        ('a@example.com', 'B', 'email addresses', 'Email addresses', 1, 1, 'pending', NULL, '2021-01-01T00:00:00Z', '2021-01-01T00:00:00Z'),
        ('a@example.com', 'B', 'email-addresses', 'email-addresses', 0, 1, 'pending', NULL, '2021-01-02T00:00:00Z', '2021-01-02T00:00:00Z'),
        ('a@example.com', 'C', 'ip addresses', 'IP addresses', 1, 1, 'pending', NULL, '2021-01-01T00:00:00Z', '2021-01-01T00:00:00Z');
      INSERT INTO sync_state VALUES ('etag', '"abc"'), ('lastPullAt', '2021-01-01T00:00:00Z');
    `);
    updateToVersion(db, 20);
    expect(db.prepare('SELECT code, key, name FROM data_class_codes ORDER BY code').raw().all()).toEqual([
      [1, 'email-addresses', 'Email addresses'],
      [3, 'passwords', 'Passwords'],
      [4, 'ip-addresses', 'IP addresses'],
    ]);
    expect(db.prepare('SELECT id, data_classes, class_codes, unresolved_codes, unresolved_count FROM breaches ORDER BY key').raw().all()).toEqual([
      ['B', '["Email addresses","Passwords"]', ',1,3,', ',1,3,', 2],
      ['C', '["IP addresses"]', ',4,', ',4,', 1],
    ]);
    expect(db.prepare('SELECT breach_key, resolved_codes, resolved_at, unresolved_codes, unresolved_count FROM breached_accounts ORDER BY breach_key').raw().all()).toEqual([
      [1, ',1,', '{"1":"2021-01-01T00:00:00Z"}', ',1,3,', 2],
      [2, ',', null, ',4,', 1],
    ]);
    // The newest intent for the merged class stays.
    expect(db.prepare('SELECT breach_id, class_key, data_class, resolved FROM outbox ORDER BY breach_id').raw().all()).toEqual([
      ['B', 'email-addresses', 'email-addresses', 0],
      ['C', 'ip-addresses', 'IP addresses', 1],
    ]);
    // A merge forgets the ETag, so the next pull rebuilds the snapshot under the new keys.
    expect(db.prepare('SELECT key FROM sync_state ORDER BY key').pluck().all()).toEqual(['lastPullAt']);
  });

  it('keeps the ETag when no two entries merged', () => {
    const db = emptyDatabase();
    updateToVersion(db, 10);
    db.exec(`INSERT INTO data_class_codes (code, key, name) VALUES (1, 'email addresses', 'Email addresses'); INSERT INTO sync_state VALUES ('etag', '"abc"');`);
    updateToVersion(db, 20);
    expect(db.prepare('SELECT key FROM data_class_codes').pluck().all()).toEqual(['email-addresses']);
    expect(db.prepare("SELECT value FROM sync_state WHERE key = 'etag'").pluck().get()).toBe('"abc"');
  });
});

describe('migration 40 (outbox rows remember a send that may have landed)', () => {
  it('adds in_doubt, set for rows a process left on the wire under the previous schema', () => {
    const db = emptyDatabase();
    updateToVersion(db, 30);
    db.exec(`
      INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, sent_version, state, failure_reason, created_at, updated_at) VALUES
        ('a@example.com', 'B', 'passwords', 'Passwords', 1, 2, 2, 'pending', NULL, 'now', 'now'),
        ('a@example.com', 'B', 'usernames', 'Usernames', 1, 1, NULL, 'pending', NULL, 'now', 'now'),
        ('a@example.com', 'C', 'passwords', 'Passwords', 0, 1, NULL, 'local', NULL, 'now', 'now');
    `);
    updateToVersion(db, 40);
    expect(db.prepare('SELECT breach_id, class_key, sent_version, in_doubt FROM outbox ORDER BY id').raw().all()).toEqual([
      ['B', 'passwords', 2, 1],
      ['B', 'usernames', null, 0],
      ['C', 'passwords', null, 0],
    ]);
    expect(() => db.prepare("UPDATE outbox SET in_doubt = 2 WHERE class_key = 'usernames'").run()).toThrow(/CHECK/);
  });
});

describe('migration 60 (the outbox without its state index)', () => {
  it('drops the index and keeps every row, the key the upsert needs, and the plan of the claim', () => {
    const db = emptyDatabase();
    updateToVersion(db, 50);
    db.exec(`
      INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, sent_version, state, failure_reason, created_at, updated_at, in_doubt) VALUES
        ('a@example.com', 'B', 'passwords', 'Passwords', 1, 2, 2, 'pending', NULL, 'now', 'now', 1),
        ('a@example.com', 'C', 'passwords', 'Passwords', 0, 1, NULL, 'failed', 'refused', 'now', 'now', 0);
    `);
    const indexes = () => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'outbox' ORDER BY name").pluck().all();
    expect(indexes()).toEqual(['outbox_by_state', 'sqlite_autoindex_outbox_1']);
    updateToVersion(db, 60);
    expect(indexes()).toEqual(['sqlite_autoindex_outbox_1']);
    expect(db.prepare('SELECT breach_id, state, sent_version, in_doubt FROM outbox ORDER BY id').raw().all()).toEqual([
      ['B', 'pending', 2, 1],
      ['C', 'failed', null, 0],
    ]);
    // The claim reads in the key's order: no sort of thousands of rows.
    const plan = (db.prepare("EXPLAIN QUERY PLAN SELECT id FROM outbox WHERE state = 'pending' ORDER BY breach_id, email, class_key").raw().all() as unknown[][]).map((row) => String(row[3]));
    expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
    expect(() =>
      db
        .prepare(
          "INSERT INTO outbox (email, breach_id, class_key, data_class, resolved, version, state, created_at, updated_at) VALUES ('a@example.com', 'B', 'passwords', 'Passwords', 0, 1, 'pending', 'now', 'now')",
        )
        .run(),
    ).toThrow(/UNIQUE/);
  });
});

describe('openAccountDatabase', () => {
  it('names the file by account id, opens in WAL with full sync, private to the user', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'account-db-'));
    dirs.push(dir);
    const file = accountDatabasePath(dir, 'https://issuer.example/', 'alice');
    expect(file).toBe(accountDatabasePath(dir, 'https://issuer.example', 'alice'));
    expect(path.relative(dir, file)).toMatch(/^accounts\/[0-9a-f]{32}\.db$/);
    expect(file).not.toContain('alice');
    const database = openAccountDatabase(file);
    try {
      expect(database.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.db.pragma('synchronous', { simple: true })).toBe(2);
      expect(schemaVersion(database.db)).toBe(LATEST_SCHEMA_VERSION);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      database.close();
    }
  });

  it('refuses a newer file and leaves it untouched', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'account-db-'));
    dirs.push(dir);
    const file = path.join(dir, 'x.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 10}`);
    raw.close();
    expect(() => openAccountDatabase(file)).toThrow(SchemaTooNewError);
    const again = new Database(file);
    expect(schemaVersion(again)).toBe(LATEST_SCHEMA_VERSION + 10);
    again.close();
  });
});
