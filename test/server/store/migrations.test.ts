import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, SchemaTooNewError, schemaVersion } from '../../../server/storage/sqliteMigrate.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, type Migration } from '../../../server/breaches/migrations/index.ts';
import { SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';

const opened: Database.Database[] = [];
function emptyDatabase(): Database.Database {
  const db = new Database(':memory:');
  opened.push(db);
  return db;
}
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function tables(db: Database.Database): string[] {
  return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all() as string[];
}

describe('migrate', () => {
  it('takes an empty database from 0 to the latest version', () => {
    const db = emptyDatabase();
    expect(schemaVersion(db)).toBe(0);
    expect(migrate(db, MIGRATIONS)).toEqual({ from: 0, to: LATEST_SCHEMA_VERSION });
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(tables(db)).toEqual([
      'accounts',
      'address_checks',
      'breaches',
      'catalog_changes',
      'catalog_origin',
      'exposure_records',
      'exposures',
      'meta',
      'person_emails',
      'removed_breaches',
      'resolutions',
      'searched_domains',
      'source_requests',
      'source_state',
      'users',
      'verification_sends',
    ]);
    expect(() => new SqliteBreachStore(db)).not.toThrow();
  });

  it('does nothing on an up-to-date database', () => {
    const db = emptyDatabase();
    migrate(db, MIGRATIONS);
    expect(migrate(db, MIGRATIONS)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION });
  });

  it('refuses a database from newer code with a clear message', () => {
    const db = emptyDatabase();
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 10}`);
    expect(() => migrate(db, MIGRATIONS)).toThrow(SchemaTooNewError);
    expect(() => migrate(db, MIGRATIONS)).toThrow(`database schema version ${LATEST_SCHEMA_VERSION + 10} is newer than this code knows (latest ${LATEST_SCHEMA_VERSION})`);
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
    expect(() => migrate(db, [...MIGRATIONS, failing])).toThrow('boom');
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(tables(db)).not.toContain('half_done');
  });

  it('applies only the migrations past the current version', () => {
    const db = emptyDatabase();
    migrate(db, MIGRATIONS);
    const next: Migration = { version: LATEST_SCHEMA_VERSION + 10, name: 'next', up: (d) => d.exec('CREATE TABLE next_thing (x INTEGER)') };
    expect(migrate(db, [...MIGRATIONS, next])).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION + 10 });
    expect(tables(db)).toContain('next_thing');
  });

  it('refuses an unordered migration list', () => {
    const up = (): void => {};
    expect(() =>
      migrate(emptyDatabase(), [
        { version: 20, name: 'b', up },
        { version: 10, name: 'a', up },
      ]),
    ).toThrow(/out of order/);
  });

  it('keeps the store from opening an unmigrated database', () => {
    expect(() => new SqliteBreachStore(emptyDatabase())).toThrow(/schema version is 0/);
  });
});

describe('schema 10 constraints', () => {
  it('rejects rows that would break the contract', () => {
    const db = emptyDatabase();
    migrate(db, MIGRATIONS);
    const insertBreach = db.prepare('INSERT INTO breaches VALUES (?, ?, ?, ?, ?, ?, ?)');
    expect(() => insertBreach.run('X', '', '2020-01-01', '2020-02-01T00:00:00Z', '2020-01-01T00:00:00Z', '[]', 0)).toThrow(/CHECK/);
    expect(() => insertBreach.run('X', '', '2020-01-01', '2020-02-01T00:00:00Z', '2020-02-01T00:00:00Z', 'nope', 0)).toThrow(/CHECK/);
    const insertResolution = db.prepare('INSERT INTO resolutions VALUES (?, ?, ?, ?, ?)');
    expect(() => insertResolution.run('a@example.com', 'X', 'Passwords', 'Passwords', '2020-01-01T00:00:00Z')).toThrow(/CHECK/);
    expect(() => insertResolution.run('A@example.com', 'X', 'passwords', 'Passwords', '2020-01-01T00:00:00Z')).toThrow(/CHECK/);
    db.pragma('foreign_keys = ON');
    expect(() => db.prepare('INSERT INTO exposures VALUES (?, ?)').run('a@example.com', 'X')).toThrow(/FOREIGN KEY/);
  });
});

describe('schema 20: resolutions keyed by data class identity (slug)', () => {
  it('rekeys lower-cased names to slugs and merges spellings of one class, keeping the first resolution', () => {
    const db = emptyDatabase();
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 10),
    );
    const insert = db.prepare('INSERT INTO resolutions VALUES (?, ?, ?, ?, ?)');
    insert.run('a@example.com', 'X', 'email addresses', 'Email addresses', '2021-01-01T10:00:00Z');
    insert.run('a@example.com', 'X', 'email-addresses', 'email-addresses', '2020-01-01T10:00:00Z');
    insert.run('a@example.com', 'X', 'passwords', 'Passwords', '2021-01-01T10:00:00Z');
    insert.run('a@example.com', 'Y', 'ip addresses', 'IP addresses', '2022-01-01T10:00:00Z');
    insert.run('b@example.com', 'X', 'email addresses', 'Email addresses', '2023-01-01T10:00:00Z');
    const revision = db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get() as number;
    expect(migrate(db, MIGRATIONS)).toEqual({ from: 10, to: LATEST_SCHEMA_VERSION });
    expect(db.prepare('SELECT email, breach_id, data_class_key, data_class, resolved_at FROM resolutions ORDER BY email, breach_id, data_class_key').raw().all()).toEqual([
      ['a@example.com', 'X', 'email-addresses', 'email-addresses', '2020-01-01T10:00:00Z'],
      ['a@example.com', 'X', 'passwords', 'Passwords', '2021-01-01T10:00:00Z'],
      ['a@example.com', 'Y', 'ip-addresses', 'IP addresses', '2022-01-01T10:00:00Z'],
      ['b@example.com', 'X', 'email-addresses', 'Email addresses', '2023-01-01T10:00:00Z'],
    ]);
    // Cached answers (ETags) made from the old keys are no longer valid.
    expect(db.prepare("SELECT value FROM meta WHERE key = 'revision'").pluck().get()).toBe(revision + 1);
  });
});
