// Service storage: a write answered 204 survives a power cut (synchronous = FULL), and the
// databases holding resolutions, grants and refresh tokens are private to their owner.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startService } from '../../../server/app.ts';
import { openOidcSqliteStore } from '../../../server/identity/sqliteAdapter.ts';
import { openSqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { breach } from '../store/helpers.ts';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'svc-storage-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const mode = (file: string) => statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('service storage', () => {
  it('syncs every commit to disk (synchronous = FULL)', () => {
    const store = openSqliteBreachStore(path.join(root, 'service.db'));
    try {
      expect(store._pragma('journal_mode')).toBe('wal');
      expect(store._pragma('synchronous')).toBe(2);
    } finally {
      store.close();
    }
  });

  it('makes service.db and its WAL files 0600 in a 0700 folder, whatever their modes were', () => {
    const dir = path.join(root, 'data');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'service.db');
    writeFileSync(file, '');
    chmodSync(file, 0o644);
    const store = openSqliteBreachStore(file);
    try {
      store.replaceCatalog([breach('Adobe')]);
      store.setExposures('a@example.com', ['Adobe']);
      expect(mode(dir)).toBe(0o700);
      for (const name of ['service.db', 'service.db-wal', 'service.db-shm']) expect(mode(path.join(dir, name)), name).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it('makes provider.db (refresh tokens, grants) 0600 in a 0700 folder', () => {
    const dir = path.join(root, 'identity');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const store = openOidcSqliteStore(path.join(dir, 'provider.db'));
    try {
      expect(mode(dir)).toBe(0o700);
      expect(mode(path.join(dir, 'provider.db'))).toBe(0o600);
    } finally {
      store.close();
    }
  });

  it('keeps the whole data folder private when the service starts', async () => {
    const dataDir = path.join(root, 'service');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const service = await startService({ port: 0, dataDir, logLevel: 'silent', demo: true });
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, 'service.db'))).toBe(0o600);
      expect(mode(path.join(dataDir, 'identity'))).toBe(0o700);
      expect(mode(path.join(dataDir, 'identity', 'provider.db'))).toBe(0o600);
    } finally {
      await service.close();
    }
  });
});
