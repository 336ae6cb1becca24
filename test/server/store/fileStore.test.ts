import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION } from '../../../server/breaches/migrations/index.ts';
import { openSqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { breach } from './helpers.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'breach-store-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a store on a real file', () => {
  it('persists across reopening, in WAL mode with foreign keys on', () => {
    const file = path.join(dir, 'nested', 'service.db');
    const first = openSqliteBreachStore(file);
    first.replaceCatalog([breach('Adobe'), breach('LinkedIn')]);
    first.putAccount({ sub: 'sub-1', emails: ['a@example.com'], deleted: false });
    first.createUser('sub-1');
    first.setExposures('a@example.com', ['Adobe']);
    first.applyResolutionChanges([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true }], '2026-02-01T10:00:00Z');
    const revision = first.revision();
    first.close();

    const second = openSqliteBreachStore(file);
    try {
      expect(second.listBreaches().map((b) => b.id)).toEqual(['Adobe', 'LinkedIn']);
      expect(second.getAccount('sub-1')).toEqual({ sub: 'sub-1', emails: ['a@example.com'], deleted: false });
      expect(second.hasUser('sub-1')).toBe(true);
      expect(second.getExposures(['a@example.com']).get('a@example.com')).toEqual(['Adobe']);
      expect(second.getResolutions(['a@example.com'])).toEqual([{ email: 'a@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolvedAt: '2026-02-01T10:00:00Z' }]);
      // Persisted, so a cache key taken before a restart never matches different data after it.
      expect(second.revision()).toBe(revision);
    } finally {
      second.close();
    }

    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('user_version', { simple: true })).toBe(LATEST_SCHEMA_VERSION);
    } finally {
      raw.close();
    }
  });

  it('sees writes made through another connection', () => {
    const file = path.join(dir, 'shared.db');
    const a = openSqliteBreachStore(file);
    const b = openSqliteBreachStore(file);
    try {
      a.replaceCatalog([breach('Adobe')]);
      expect(b.listBreaches().map((x) => x.id)).toEqual(['Adobe']);
      b.putBreach(breach('Canva'));
      expect(a.listBreaches().map((x) => x.id)).toEqual(['Adobe', 'Canva']);
      expect(a.revision()).toBe(b.revision());
    } finally {
      a.close();
      b.close();
    }
  });

  it('refuses to open a database written by newer code', () => {
    const file = path.join(dir, 'future.db');
    const raw = new Database(file);
    raw.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 10}`);
    raw.close();
    expect(() => openSqliteBreachStore(file)).toThrow(/newer than this code knows/);
  });
});
