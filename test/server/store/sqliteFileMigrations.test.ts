// The service's other SQLite files, each a database of its own with its own versioned list run by
// the one runner (shared/db/migrations.ts): the API token file, the identity provider's file and
// the realtime database's file. Files the previous release wrote (test/server/fixtures/
// oldSqliteLayout.ts: tables made by `CREATE … IF NOT EXISTS` on every open, user_version 0) are
// adopted with their data and end with a fresh file's schema; a table of the same name with
// another schema, and a file newer than this code, are refused without a change.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openOidcSqliteStore } from '../../../server/identity/sqliteAdapter.ts';
import { SqliteRtdbStore } from '../../../server/rtdb/SqliteRtdbStore.ts';
import { mintApiToken } from '../../../server/search/ApiTokenStore.ts';
import { SqliteApiTokenStore } from '../../../server/search/SqliteApiTokenStore.ts';
import { OLD_API_TOKENS_DDL, OLD_OIDC_DDL, OLD_RTDB_VERSION_10_DDL } from '../fixtures/oldSqliteLayout.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function newFile(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sqlite-files-'));
  dirs.push(dir);
  return path.join(dir, name);
}

function withDb<T>(file: string, work: (db: Database.Database) => T): T {
  const db = new Database(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Every table and index with the statement SQLite keeps for it, and the file's user_version. */
function schemaOf(file: string): { userVersion: number; objects: unknown[] } {
  return withDb(file, (db) => ({
    userVersion: Number(db.pragma('user_version', { simple: true })),
    objects: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all(),
  }));
}

const TOKEN = mintApiToken('local', { scopes: ['ai-search:read'], name: 'kept' }, Date.UTC(2026, 0, 1));
const FAR_FUTURE = Math.floor(Date.UTC(2100, 0, 1) / 1000);

/** A file kind: how the previous release made it, a row it held, and how this code opens and reads it. */
interface FileKind {
  name: string;
  file: string;
  oldDdl: string;
  table: string;
  putOldRow(db: Database.Database): void;
  /** Opens the file with this code and returns what it reads of the row (closing it after). */
  readBack(file: string): Promise<unknown>;
  expected: unknown;
  /** The file's version once this code opened it: the last of its list. */
  version: number;
}

const KINDS: FileKind[] = [
  {
    name: 'the API token file',
    file: 'api-tokens.db',
    oldDdl: OLD_API_TOKENS_DDL,
    table: 'api_tokens',
    putOldRow(db) {
      const { row } = TOKEN;
      db.prepare('INSERT INTO api_tokens (id, account_id, name, secret_hash, scopes, allow_ips, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
        row.id,
        row.accountId,
        row.name,
        row.secretHash,
        JSON.stringify(row.scopes),
        JSON.stringify(row.allowIps),
        row.createdAt,
        row.expiresAt,
      );
    },
    async readBack(file) {
      const store = new SqliteApiTokenStore(file);
      try {
        const found = await store.find(TOKEN.token);
        return found && { id: found.id, name: found.name, scopes: found.scopes };
      } finally {
        await store.close();
      }
    },
    expected: { id: TOKEN.row.id, name: 'kept', scopes: ['ai-search:read'] },
    version: 10,
  },
  {
    name: "the identity provider's file",
    file: 'provider.db',
    oldDdl: OLD_OIDC_DDL,
    table: 'oidc_entities',
    putOldRow(db) {
      db.prepare("INSERT INTO oidc_entities (model, id, payload, uid, expires_at) VALUES ('Session', 'session-1', ?, 'uid-1', ?)").run(
        JSON.stringify({ accountId: 'alice', uid: 'uid-1' }),
        FAR_FUTURE,
      );
    },
    async readBack(file) {
      const store = openOidcSqliteStore(file);
      try {
        const sessions = store.adapterFactory('Session');
        return { byId: await sessions.find('session-1'), byUid: await sessions.findByUid('uid-1') };
      } finally {
        store.close();
      }
    },
    // Found by its id, a payload carries that id as `jti`, as oidc-provider wrote it (migration 20 hashed the id).
    expected: { byId: { accountId: 'alice', uid: 'uid-1', jti: 'session-1' }, byUid: { accountId: 'alice', uid: 'uid-1' } },
    version: 30,
  },
];

describe.each(KINDS)('$name', (kind) => {
  it('a new file is created at the last version of its list', async () => {
    const file = newFile(kind.file);
    expect(await kind.readBack(file)).not.toEqual(kind.expected);
    expect(schemaOf(file).userVersion).toBe(kind.version);
  });

  it("a file of the previous release (its tables, user_version 0) is adopted with its data and ends with a new file's schema", async () => {
    const fresh = newFile(kind.file);
    await kind.readBack(fresh);
    const file = newFile(kind.file);
    withDb(file, (db) => {
      db.pragma('journal_mode = WAL');
      db.exec(kind.oldDdl);
      kind.putOldRow(db);
    });
    expect(schemaOf(file).userVersion).toBe(0);
    expect(await kind.readBack(file)).toEqual(kind.expected);
    expect(schemaOf(file).userVersion).toBe(kind.version);
    expect(schemaOf(file)).toEqual(schemaOf(fresh));
    // Opened again: nothing left to run, the row still there.
    expect(await kind.readBack(file)).toEqual(kind.expected);
  });

  it('a table of that name with another schema is refused, not adopted, and the file left as it was', async () => {
    const file = newFile(kind.file);
    withDb(file, (db) => db.exec(`CREATE TABLE ${kind.table} (id TEXT PRIMARY KEY)`));
    const before = schemaOf(file);
    await expect(kind.readBack(file)).rejects.toThrow(new RegExp(`${kind.file}: ${kind.table} exists but is not the schema this version adopts`));
    expect(schemaOf(file)).toEqual(before);
  });

  it('a file of a newer release (user_version above its list) is refused', async () => {
    const file = newFile(kind.file);
    await kind.readBack(file);
    withDb(file, (db) => db.pragma(`user_version = ${kind.version + 10}`));
    await expect(kind.readBack(file)).rejects.toMatchObject({ name: 'SchemaTooNewError', found: kind.version + 10, known: kind.version });
  });
});

describe("the realtime database's file", () => {
  it("a file of the previous release's inline list (version 10) opens with its data and a new file's schema", async () => {
    const fresh = newFile('rtdb.db');
    await new SqliteRtdbStore(fresh).close();
    const file = newFile('rtdb.db');
    withDb(file, (db) => {
      db.exec(OLD_RTDB_VERSION_10_DDL);
      db.pragma('user_version = 10');
      db.exec(`INSERT INTO leaves (path, value) VALUES ('prefs/alice/theme', '"dark"')`);
    });
    const store = new SqliteRtdbStore(file);
    try {
      expect(await store.get(['prefs'])).toEqual({ alice: { theme: 'dark' } });
    } finally {
      await store.close();
    }
    expect(schemaOf(file)).toEqual(schemaOf(fresh));
    expect(schemaOf(fresh).userVersion).toBe(10);
  });

  it('a file of a newer release is refused', async () => {
    const file = newFile('rtdb.db');
    await new SqliteRtdbStore(file).close();
    withDb(file, (db) => db.pragma('user_version = 20'));
    expect(() => new SqliteRtdbStore(file)).toThrow(/database schema version 20 is newer than this code knows \(latest 10\)/);
  });
});
