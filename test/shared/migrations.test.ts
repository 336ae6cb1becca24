import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateSchema, schemaVersion, type Migration } from '../../shared/db/migrations.ts';

type DB = Database.Database;
const open: DB[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

function memory(): DB {
  const db = new Database(':memory:');
  open.push(db);
  return db;
}

const tooNew = (found: number, known: number) => new Error(`too new: ${found} > ${known}`);
const STEPS: Migration<DB>[] = [
  { version: 10, name: 'one', up: (db) => db.exec('CREATE TABLE one (x)') },
  { version: 20, name: 'two', up: (db) => db.exec('CREATE TABLE two (y)') },
];
const tables = (db: DB) => db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).pluck().all();

describe('migrateSchema (account, graph and service databases alike)', () => {
  it('runs every step in order and records the version', () => {
    const db = memory();
    const applied: string[] = [];
    expect(migrateSchema(db, STEPS, { tooNew, onApplied: (_db, step) => applied.push(step.name) })).toEqual({ from: 0, to: 20 });
    expect(tables(db)).toEqual(['one', 'two']);
    expect(applied).toEqual(['one', 'two']);
    expect(migrateSchema(db, STEPS, { tooNew })).toEqual({ from: 20, to: 20 });
  });

  it('stops at a target, and later takes up from there', () => {
    const db = memory();
    expect(migrateSchema(db, STEPS, { tooNew, target: 10 })).toEqual({ from: 0, to: 10 });
    expect(tables(db)).toEqual(['one']);
    expect(migrateSchema(db, STEPS, { tooNew })).toEqual({ from: 10, to: 20 });
  });

  it('leaves the previous version intact when a step fails, its log line included', () => {
    const db = memory();
    db.exec('CREATE TABLE log (name)');
    const broken: Migration<DB>[] = [STEPS[0]!, { version: 20, name: 'broken', up: (d) => (d.exec('CREATE TABLE half (z)'), d.exec('NOT SQL')) }];
    expect(() => migrateSchema(db, broken, { tooNew, onApplied: (d, step) => void d.prepare('INSERT INTO log VALUES (?)').run(step.name) })).toThrow(/syntax error/);
    expect(schemaVersion(db)).toBe(10);
    expect(tables(db)).toEqual(['log', 'one']);
    expect(db.prepare('SELECT name FROM log').pluck().all()).toEqual(['one']);
  });

  it('refuses a file written by newer code, with the caller’s error', () => {
    const db = memory();
    db.pragma('user_version = 30');
    expect(() => migrateSchema(db, STEPS, { tooNew })).toThrow('too new: 30 > 20');
    expect(tables(db)).toEqual([]);
  });

  it('refuses steps out of order or with a bad version before running any', () => {
    const db = memory();
    expect(() => migrateSchema(db, [STEPS[1]!, STEPS[0]!], { tooNew })).toThrow(/out of order: one \(10\) after two \(20\)/);
    expect(() => migrateSchema(db, [{ ...STEPS[0]!, version: 1.5 }], { tooNew })).toThrow(/invalid version 1.5/);
    expect(schemaVersion(db)).toBe(0);
  });
});
