import type Database from 'better-sqlite3';
import { BreachDetails, type CatalogDetails } from '../../../shared/catalog/index.ts';
import { openPrivateDatabase } from '../../../engine/db/openPrivateDatabase.ts';
import { migrateSchema } from '../../../shared/db/migrations.ts';
import { DETAILS_MIGRATIONS } from './migrations/index.ts';

export interface FeedState {
  url: string;
  etag: string | undefined;
  /** ISO time of the last successful sync (changed or not). */
  syncedAt: string;
  count: number;
}

/**
 * The details feed's copy on this machine (`<data>/catalog-details.db`): the catalog is public
 * and the same for every account, so it is kept once, apart from the account databases. A sync
 * replaces it whole in one transaction, with the ETag it came with.
 */
export class DetailsStore {
  readonly #db: Database.Database;

  constructor(file: string) {
    this.#db = openPrivateDatabase(file, { synchronous: 'NORMAL' }, (db) => {
      migrateSchema(db, DETAILS_MIGRATIONS, {
        tooNew: (found, known) =>
          new Error(`${file} has schema version ${found}, newer than this app knows (latest ${known}); update Breach Monitor, or remove that file (the catalog's details are downloaded again)`),
      });
    });
  }

  /** Replaces every entry (a catalog from another URL replaces the last one's). */
  replace(url: string, details: CatalogDetails, etag: string | undefined, now = new Date()): void {
    const insert = this.#db.prepare('INSERT INTO details (id, details) VALUES (?, ?)');
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM details').run();
      for (const [id, entry] of Object.entries(details)) insert.run(id, JSON.stringify(entry));
      this.#writeState(url, etag, now, Object.keys(details).length);
    })();
  }

  /** Records an unchanged answer (304 or the same ETag): only the time moves. */
  touch(now = new Date()): void {
    this.#db.prepare('UPDATE feed_state SET synced_at = ?').run(now.toISOString());
  }

  state(): FeedState | undefined {
    const row = this.#db.prepare<[], { url: string; etag: string | null; synced_at: string; count: number }>('SELECT url, etag, synced_at, count FROM feed_state').get();
    return row ? { url: row.url, etag: row.etag ?? undefined, syncedAt: row.synced_at, count: row.count } : undefined;
  }

  /** Details of these breaches, where the feed has them (read back through the schema). */
  getMany(ids: readonly string[]): Map<string, BreachDetails> {
    const rows = this.#db.prepare<[string], { id: string; details: string }>('SELECT id, details FROM details WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(ids));
    const found = new Map<string, BreachDetails>();
    for (const row of rows) {
      const parsed = BreachDetails.safeParse(JSON.parse(row.details));
      if (parsed.success) found.set(row.id, parsed.data);
    }
    return found;
  }

  /** Ids of fabricated, spam-list and retired breaches: hidden unless a person asks for them. */
  flaggedIds(): string[] {
    return this.#db
      .prepare<[], { id: string }>("SELECT id FROM details WHERE json_extract(details, '$.isFabricated') = 1 OR json_extract(details, '$.isSpamList') = 1 OR json_extract(details, '$.isRetired') = 1")
      .all()
      .map((row) => row.id);
  }

  /**
   * The breaches that name a site, for matching the person's logins (logins/): id, title, domain
   * and dates only. Fabricated breaches and spam lists are left out: they are no breach of a site.
   */
  siteBreaches(): { breachId: string; title: string; domain: string; breachDate: string; addedDate: string }[] {
    return this.#db
      .prepare<[], { breachId: string; title: string; domain: string; breachDate: string; addedDate: string }>(
        `SELECT id AS breachId, json_extract(details, '$.title') AS title, json_extract(details, '$.domain') AS domain,
                json_extract(details, '$.breachDate') AS breachDate, json_extract(details, '$.addedDate') AS addedDate
           FROM details
          WHERE json_extract(details, '$.domain') <> '' AND json_extract(details, '$.isFabricated') = 0 AND json_extract(details, '$.isSpamList') = 0`,
      )
      .all()
      .filter((row) => typeof row.title === 'string' && typeof row.domain === 'string' && typeof row.breachDate === 'string');
  }

  get(id: string): BreachDetails | undefined {
    return this.getMany([id]).get(id);
  }

  close(): void {
    this.#db.close();
  }

  #writeState(url: string, etag: string | undefined, now: Date, count: number): void {
    this.#db
      .prepare(
        'INSERT INTO feed_state (only, url, etag, synced_at, count) VALUES (1, ?, ?, ?, ?) ON CONFLICT (only) DO UPDATE SET url = excluded.url, etag = excluded.etag, synced_at = excluded.synced_at, count = excluded.count',
      )
      .run(url, etag ?? null, now.toISOString(), count);
  }
}
