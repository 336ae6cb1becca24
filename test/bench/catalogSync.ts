// catalog_sync_hibp for bench:sync: the app's details-feed sync of Have I Been Pwned's real
// catalog (834 breaches) from the reference service, first (empty copy) and unchanged (the
// copy's ETag answered 304). Floors, measured in the same run: for the first sync, a bare GET of
// the same URL, JSON.parse and a bare bulk insert of the same entries into a plain table (same
// pragmas); for the unchanged one, a bare GET with the same If-None-Match. The same first sync
// paged with queries is measured back to back with it (catalog_sync_hibp_paged).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { DetailsStore } from '../../electron/core/feed/DetailsStore.ts';
import { RealtimeDatabaseClient } from '../../electron/core/feed/RealtimeDatabaseClient.ts';
import { syncCatalogDetails } from '../../electron/core/feed/syncCatalogDetails.ts';

/** Entries per page of the paged first sync (the query pages the app could use). */
export const CATALOG_PAGE_SIZE = 200;

export interface CatalogSyncFigures {
  firstMs: number[];
  /** The same first sync, paged with queries (`orderBy="$key"`, `limitToFirst`, `startAt`), measured back to back with the whole read. */
  pagedMs: number[];
  pagedRequests: number;
  firstFloorMs: number[];
  unchangedMs: number[];
  unchangedFloorMs: number[];
  entries: number;
}

export async function measureCatalogSync(dbUrl: string, runs: number): Promise<CatalogSyncFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-catalog-'));
  const figures: CatalogSyncFigures = { firstMs: [], pagedMs: [], pagedRequests: 0, firstFloorMs: [], unchangedMs: [], unchangedFloorMs: [], entries: 0 };
  const catalogUrl = `${dbUrl}/catalog/breaches.json`;
  try {
    // One warm-up of each, so connection set-up and JIT do not land in the first run.
    await runOnce(-1);
    for (let run = 0; run < runs; run++) await runOnce(run);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return figures;

  async function runOnce(run: number): Promise<void> {
    const store = new DetailsStore(path.join(dir, `details-${run}.db`));
    const client = new RealtimeDatabaseClient({ url: dbUrl, credential: { kind: 'none' } });
    try {
      let started = performance.now();
      const first = await syncCatalogDetails(client, store);
      const firstMs = performance.now() - started;
      if (first.status !== 'updated' || first.skipped.length > 0) throw new Error(`catalog_sync_hibp: first sync ${first.status}, ${first.skipped.length} skipped`);
      started = performance.now();
      const again = await syncCatalogDetails(client, store);
      const unchangedMs = performance.now() - started;
      if (again.status !== 'unchanged') throw new Error('catalog_sync_hibp: second sync was not unchanged');

      const pagedStore = new DetailsStore(path.join(dir, `paged-${run}.db`));
      let pagedMs: number;
      let pagedRequests = 0;
      try {
        const counting: typeof fetch = (input, init) => (pagedRequests++, fetch(input, init));
        const pagedClient = new RealtimeDatabaseClient({ url: dbUrl, credential: { kind: 'none' }, fetch: counting });
        started = performance.now();
        const paged = await syncCatalogDetails(pagedClient, pagedStore, { pageSize: CATALOG_PAGE_SIZE });
        pagedMs = performance.now() - started;
        if (paged.count !== first.count || paged.skipped.length > 0) throw new Error(`catalog_sync_hibp: the paged sync stored ${paged.count} of ${first.count}`);
      } finally {
        pagedStore.close();
      }

      started = performance.now();
      const response = await fetch(catalogUrl, { headers: { 'x-firebase-etag': 'true' } });
      const etag = response.headers.get('etag')!;
      const entries = Object.entries(JSON.parse(await response.text()) as Record<string, unknown>);
      bareInsert(path.join(dir, `floor-${run}.db`), entries);
      const firstFloorMs = performance.now() - started;

      started = performance.now();
      const notModified = await fetch(catalogUrl, { headers: { 'x-firebase-etag': 'true', 'if-none-match': etag } });
      await notModified.arrayBuffer();
      const unchangedFloorMs = performance.now() - started;
      if (notModified.status !== 304) throw new Error(`catalog_sync_hibp: the floor's conditional GET answered ${notModified.status}`);

      if (run < 0) return;
      figures.entries = first.count;
      figures.firstMs.push(firstMs);
      figures.pagedMs.push(pagedMs);
      figures.pagedRequests = pagedRequests;
      figures.unchangedMs.push(unchangedMs);
      figures.firstFloorMs.push(firstFloorMs);
      figures.unchangedFloorMs.push(unchangedFloorMs);
    } finally {
      store.close();
    }
  }
}

function bareInsert(file: string, entries: [string, unknown][]): void {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec('CREATE TABLE details (id TEXT PRIMARY KEY, details TEXT NOT NULL) WITHOUT ROWID');
    const insert = db.prepare('INSERT INTO details (id, details) VALUES (?, ?)');
    db.transaction(() => {
      for (const [id, value] of entries) insert.run(id, JSON.stringify(value));
    })();
  } finally {
    db.close();
  }
}
