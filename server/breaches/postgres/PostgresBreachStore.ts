import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { CatalogOrigin, emailKey, type Breach, type CatalogChange } from '../../../shared/api/index.ts';
import { compareIds } from '../../catalog/dataClasses.ts';
import {
  stampsOf,
  type Account,
  type AccountRead,
  type AddedEmailProof,
  type BreachStore,
  type CodeSend,
  type CodeSendResult,
  type PersonEmailRow,
  type CatalogReplacement,
  type LoadedCatalog,
  type RemovedBreach,
  type ResolutionChange,
  type ResolutionRow,
} from '../BreachStore.ts';
import { copyAccount, copyBreach, copyRemovedBreaches, fromCatalogChangeColumns, type CatalogChangeColumns, fromBreachColumns, toBreachColumns, type BreachColumns } from '../breachRows.ts';
import {
  checkResolutionChange,
  dataClassSpellings,
  distinctValidBreaches,
  exposureEmailKey,
  validAccount,
  validBreach,
  validCatalogReplacement,
  validInventedRemoval,
  validResolvedAt,
  validUserSub,
  type CheckedResolutionChange,
} from '../breachRules.ts';
import { catalogChangesSince, LOG_CATALOG } from './catalogLog.ts';
import * as personEmails from './personEmails.ts';
import { fromPersonEmailRow, personEmailKey, validCodeSend, validProof, type StoredPersonEmail } from '../personEmailRules.ts';
import { changePayload, CHANGE_CHANNEL, type ChangeListener } from './changeNotices.ts';
import { AccountReadBatch, type AccountReadRequest } from './accountReadBatcher.ts';
import { guarded, transaction } from '../../storage/pool.ts';
import { PostgresSnapshotCache } from './postgresSnapshotCache.ts';

/** One person's devices writing at once conflict on that person's revision row; they take turns. */
const MAX_ATTEMPTS = 12;
const MAX_REMEMBERED_USERS = 10_000;

/**
 * The store's revision is a sequence: taking a number never waits for, nor conflicts with,
 * another transaction (a counter row would make every write in the service conflict).
 */
const BUMP = "SELECT nextval('change_counter')";
const BUMP_CATALOG = "UPDATE meta SET value = value + 1 WHERE key = 'catalog_revision'; SELECT nextval('change_counter')";

/**
 * {@link BreachStore} on PostgreSQL, for several instances sharing one database. Nothing that
 * decides an answer is kept in memory across requests except the catalog, which is re-read
 * when its revision (one indexed row) moves. Per-email revisions come from one sequence, so
 * {@link changeStamp} changes when any instance wrote about those emails. Resolution batches run
 * SERIALIZABLE and are retried when PostgreSQL reports a serialization failure.
 */
export class PostgresBreachStore implements BreachStore {
  readonly #pool: pg.Pool;
  readonly #where: string;
  /** Account reads under `check`, asked together (see {@link AccountReadBatch}). */
  readonly #accountReads = new AccountReadBatch((requests) => this.#readAccounts(requests));
  readonly #catalog: PostgresSnapshotCache;
  #closed = false;
  /** Users are never deleted, so one seen by any instance stays true: no query for known users. */
  readonly #knownUsers = new Set<string>();
  /** Under `notify`: accounts as read, valid while the listener's generation stays (see readAccount). */
  readonly #accounts = new Map<string, { generation: string; account: Account | undefined }>();

  readonly #listener: ChangeListener | undefined;

  /** Names this store's notices, so its own listener skips them. */
  readonly #id: string;
  /** Ends the pool when the store owns it; nothing when the pool is shared. */
  readonly #endPool: () => Promise<void>;

  constructor(pool: pg.Pool, where: string, id: string = randomUUID(), listener?: ChangeListener, endPool: () => Promise<void> = () => pool.end()) {
    this.#id = id;
    this.#pool = pool;
    this.#endPool = endPool;
    this.#where = where;
    this.#listener = listener;
    this.#catalog = new PostgresSnapshotCache(pool, where, MAX_ATTEMPTS);
  }

  /** `host:port/database`, for messages. */
  get database(): string {
    return this.#where;
  }

  async listBreaches(): Promise<Breach[]> {
    return (await this.#catalog.current()).breaches.map(copyBreach);
  }

  async getBreach(id: string): Promise<Breach | undefined> {
    const breach = (await this.#catalog.current()).byId.get(id);
    return breach && copyBreach(breach);
  }

  async putBreach(breach: Breach): Promise<void> {
    const valid = validBreach(breach);
    await this.#transaction('READ COMMITTED', async (client) => {
      await upsertBreaches(client, [valid]);
      // A breach back in the catalog is no longer "removed" (as in a whole replacement).
      await client.query('DELETE FROM removed_breaches WHERE id = $1', [valid.id]);
      await client.query(BUMP_CATALOG);
      await client.query(LOG_CATALOG, [[valid.id]]);
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, changePayload(this.#id, '*')]);
    });
    this.#listener?.note('*');
  }

  async putBreaches(breaches: readonly Breach[]): Promise<void> {
    const valid = distinctValidBreaches(breaches);
    await this.#transaction('READ COMMITTED', async (client) => {
      await upsertBreaches(client, valid);
      await client.query('DELETE FROM removed_breaches WHERE id = ANY($1::text[])', [valid.map((breach) => breach.id)]);
      await client.query(BUMP_CATALOG);
      await client.query(LOG_CATALOG, [valid.map((breach) => breach.id)]);
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, changePayload(this.#id, '*')]);
    });
    this.#listener?.note('*');
  }

  async replaceCatalog(breaches: readonly Breach[], replacement?: CatalogReplacement): Promise<void> {
    validCatalogReplacement(replacement);
    const valid = distinctValidBreaches(breaches);
    const at = replacement?.at ?? new Date().toISOString();
    await this.#transaction('READ COMMITTED', async (client) => {
      // One catalog replacement at a time across instances: each sees what the other left.
      const before = (await client.query<{ origin: string | null; file: string | null }>('SELECT origin, file FROM catalog_origin WHERE id = 1 FOR UPDATE')).rows[0];
      const ids = valid.map((breach) => breach.id);
      const leaving = await client.query<BreachColumns>('SELECT * FROM breaches WHERE NOT (id = ANY($1::text[])) ORDER BY id COLLATE "C"', [ids]);
      if (leaving.rows.length > 0) {
        await client.query(
          `INSERT INTO removed_breaches (id, breach, removed_at) SELECT b->>'id', b, $2 FROM jsonb_array_elements($1::jsonb) AS b
           ON CONFLICT (id) DO UPDATE SET breach = excluded.breach, removed_at = excluded.removed_at`,
          [JSON.stringify(leaving.rows.map(fromBreachColumns)), at],
        );
      }
      await client.query('DELETE FROM removed_breaches WHERE id = ANY($1::text[])', [ids]);
      await client.query('DELETE FROM breaches');
      await upsertBreaches(client, valid);
      if (replacement) await client.query('UPDATE catalog_origin SET origin = $1, file = $2 WHERE id = 1', [replacement.origin, replacement.file]);
      const to = replacement?.origin ?? before?.origin ?? null;
      if (leaving.rows.length > 0 && to !== null) {
        const gone = leaving.rows.map((row) => row.id);
        // Per address exposed to a leaving breach: which ones, and how many resolutions they keep.
        await client.query(
          `INSERT INTO catalog_changes (at, email, from_catalog, to_catalog, removed, invented_removed, resolutions_kept, resolutions_removed)
           SELECT $2, e.email, $3, $4, to_jsonb(array_agg(e.breach_id ORDER BY e.breach_id COLLATE "C")), '[]'::jsonb,
                  (SELECT count(*) FROM resolutions AS r WHERE r.email = e.email AND r.breach_id = ANY($1::text[])), 0
           FROM exposures AS e WHERE e.breach_id = ANY($1::text[]) GROUP BY e.email ORDER BY e.email COLLATE "C"`,
          [gone, at, before?.origin ?? null, to],
        );
      }
      await client.query(BUMP_CATALOG);
      // Anything may have changed: readers of the log read the whole catalog once.
      await client.query(LOG_CATALOG, [null]);
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, changePayload(this.#id, '*')]);
    });
    this.#listener?.note('*');
  }

  async loadedCatalog(): Promise<LoadedCatalog | undefined> {
    const { rows } = await this.#query<{ origin: string | null; file: string | null }>('SELECT origin, file FROM catalog_origin WHERE id = 1');
    const row = rows[0];
    return row?.origin ? { origin: CatalogOrigin.parse(row.origin), file: row.file } : undefined;
  }

  async removedBreaches(): Promise<Map<string, RemovedBreach>> {
    return copyRemovedBreaches((await this.#catalog.current()).removed);
  }

  async removeInventedExposures(change: { at: string; to: CatalogOrigin }): Promise<string[]> {
    const { at, to } = validInventedRemoval(change);
    const emails = await this.#transaction('READ COMMITTED', async (client) => {
      const before = (await client.query<{ origin: string | null }>('SELECT origin FROM catalog_origin WHERE id = 1')).rows[0];
      const records = await client.query<{ email: string; ids: string[] }>(
        `SELECT r.email, coalesce((SELECT array_agg(e.breach_id ORDER BY e.breach_id) FROM exposures AS e WHERE e.email = r.email), '{}') AS ids
         FROM exposure_records AS r WHERE r.invented ORDER BY r.email COLLATE "C" FOR UPDATE OF r`,
      );
      for (const { email, ids } of records.rows) {
        const sorted = ids.sort(compareIds);
        const removed = await client.query('DELETE FROM resolutions WHERE email = $1 AND breach_id = ANY($2::text[])', [email, sorted]);
        await client.query('DELETE FROM exposure_records WHERE email = $1', [email]);
        // A lookup answer the invented record replaced is gone with it: unknown (due now), never clean.
        await client.query('UPDATE address_checks SET checked_at = NULL, breach_count = NULL, due_at = $2 WHERE email = $1 AND checked_at IS NOT NULL', [email, Date.parse(at)]);
        await client.query(
          `INSERT INTO catalog_changes (at, email, from_catalog, to_catalog, removed, invented_removed, resolutions_kept, resolutions_removed)
           VALUES ($1, $2, $3, $4, '[]'::jsonb, $5::jsonb, 0, $6)`,
          [at, email, before?.origin ?? null, to, JSON.stringify(sorted), removed.rowCount ?? 0],
        );
      }
      const emails = records.rows.map((row) => row.email);
      if (emails.length > 0) await bumpEmails(client, this.#id, [...emails]);
      return emails;
    });
    if (emails.length > 0) this.#listener?.note(emails);
    return emails;
  }

  async catalogChanges(emails: readonly string[]): Promise<CatalogChange[]> {
    const { rows } = await this.#query<CatalogChangeColumns>('SELECT * FROM catalog_changes WHERE email = ANY($1::text[]) ORDER BY id', [emailList(emails)]);
    return rows.map(fromCatalogChangeColumns);
  }

  async catalogSize(): Promise<number> {
    const { rows } = await this.#query<{ n: string }>('SELECT count(*) AS n FROM breaches');
    return Number(rows[0]?.n ?? 0);
  }

  async getAccount(sub: string): Promise<Account | undefined> {
    const { rows } = await this.#query<{ emails: string[]; deleted: boolean }>({ name: 'breach-account', text: 'SELECT emails, deleted FROM accounts WHERE sub = $1', values: [sub] });
    const row = rows[0];
    return row && { sub, emails: row.emails, deleted: row.deleted };
  }

  /**
   * One statement, prepared once per connection: the account, the catalog's revision and the
   * revisions of the account's emails (or of `fallbackEmails` when there is no account).
   */
  async readAccount(sub: string, fallbackEmails: readonly string[]): Promise<AccountRead> {
    const listener = this.#listener;
    const generation = listener?.generation();
    if (listener && generation !== undefined) {
      // Under `notify` the stamps are known without a query, and so is an account read since the
      // last account (or catalog) write was announced: a cached answer costs no round trip. Should
      // the listener stop meanwhile, a stamp that matches nothing makes the answer be built afresh.
      const changeStamp = (emails: readonly string[]) => listener.stamp(emails) ?? `unheard.${randomUUID()}`;
      // The added addresses are read each time: their writes (codes, attempts) are not announced.
      const known = this.#accounts.get(sub);
      if (known?.generation === generation) return { account: known.account && copyAccount(known.account), added: await this.personEmails(sub), changeStamp };
      // Remembered under the generation from before the read: a write announced meanwhile makes the next read query again.
      const [account, added] = await Promise.all([this.getAccount(sub), this.personEmails(sub)]);
      if (this.#accounts.size >= MAX_REMEMBERED_USERS) this.#accounts.clear();
      this.#accounts.set(sub, { generation, account: account && copyAccount(account) });
      return { account, added, changeStamp };
    }
    return this.#accountReads.read(sub, emailList(fallbackEmails));
  }

  /**
   * One round trip for several account reads: each account with the person's added addresses
   * and the change stamps of its emails and of the verified added ones, in the order asked.
   */
  async #readAccounts(requests: readonly AccountReadRequest[]): Promise<AccountRead[]> {
    const { rows } = await this.#query<{
      i: number;
      emails: string[] | null;
      deleted: boolean | null;
      catalog: string;
      revisions: Record<string, number | string> | null;
      added: StoredPersonEmail[] | null;
    }>({
      name: 'breach-accounts-read',
      text: `WITH q AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS q (i integer, sub text, fallback text[])),
                  a AS (SELECT q.i, q.sub, q.fallback, acc.emails, acc.deleted FROM q LEFT JOIN accounts AS acc ON acc.sub = q.sub),
                  e AS (SELECT a.i, e.email FROM a CROSS JOIN LATERAL
                          unnest(CASE WHEN a.emails IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(a.emails)) ELSE a.fallback END) AS e (email)
                        UNION
                        SELECT a.i, p.email FROM a JOIN person_emails AS p ON p.sub = a.sub WHERE p.verified_at IS NOT NULL)
             SELECT a.i, a.emails, a.deleted,
                    (SELECT value FROM meta WHERE key = 'catalog_revision')::text AS catalog,
                    (SELECT jsonb_object_agg(e.email, coalesce(r.revision, 0)) FROM e LEFT JOIN email_revisions AS r USING (email) WHERE e.i = a.i) AS revisions,
                    (SELECT json_agg(p ORDER BY p.added_at, p.email) FROM (SELECT ${personEmails.PERSON_EMAIL_COLUMNS} FROM person_emails WHERE sub = a.sub) AS p) AS added
             FROM a ORDER BY a.i`,
      values: [JSON.stringify(requests.map((request, i) => ({ i, sub: request.sub, fallback: request.fallback })))],
    });
    return rows.map((row) => {
      const account = row.emails === null ? undefined : { sub: requests[row.i]!.sub, emails: row.emails, deleted: row.deleted === true };
      return {
        account,
        added: (row.added ?? []).map(fromPersonEmailRow),
        changeStamp: stampsOf(row.catalog, new Map(Object.entries(row.revisions ?? {}).map(([email, revision]) => [email, String(revision)]))),
      };
    });
  }

  async putAccount(account: Account): Promise<void> {
    const { emails } = validAccount(account);
    await this.#transaction('READ COMMITTED', async (client) => {
      await client.query(
        `INSERT INTO accounts (sub, emails, deleted) VALUES ($1, $2, $3)
         ON CONFLICT (sub) DO UPDATE SET emails = excluded.emails, deleted = excluded.deleted`,
        [account.sub, JSON.stringify(emails), account.deleted],
      );
      await client.query(BUMP);
      // Announced as `*`: instances that remember accounts under `notify` forget them all (account writes are rare).
      await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, changePayload(this.#id, '*')]);
    });
    this.#listener?.note('*');
  }

  async hasUser(sub: string): Promise<boolean> {
    if (this.#knownUsers.has(sub)) return true;
    const { rowCount } = await this.#query({ name: 'breach-has-user', text: 'SELECT 1 FROM users WHERE sub = $1', values: [sub] });
    if (rowCount === 1) {
      if (this.#knownUsers.size >= MAX_REMEMBERED_USERS) this.#knownUsers.clear();
      this.#knownUsers.add(sub);
    }
    return rowCount === 1;
  }

  async createUser(sub: string): Promise<boolean> {
    validUserSub(sub);
    return this.#transaction('READ COMMITTED', async (client) => {
      const { rowCount } = await client.query('INSERT INTO users (sub, created_at) VALUES ($1, $2) ON CONFLICT (sub) DO NOTHING', [sub, new Date().toISOString()]);
      if (rowCount === 1) await client.query(BUMP);
      return rowCount === 1;
    });
  }

  async getExposures(emails: readonly string[]): Promise<Map<string, string[]>> {
    const { rows } = await this.#query<{ email: string; ids: string[] }>(
      `SELECT r.email, coalesce((SELECT array_agg(e.breach_id ORDER BY e.breach_id) FROM exposures AS e WHERE e.email = r.email), '{}') AS ids
       FROM exposure_records AS r WHERE r.email = ANY($1::text[])`,
      [emailList(emails)],
    );
    // PostgreSQL orders by collation; the contract orders ids by compareIds.
    return new Map(rows.map(({ email, ids }) => [email, ids.sort(compareIds)]));
  }

  async setExposures(email: string, breachIds: readonly string[], invented = false): Promise<void> {
    const key = exposureEmailKey(email);
    await this.#transaction('READ COMMITTED', async (client) => {
      // What the record was, locked (when it exists) so no other writer changes it before this one's done.
      const before = await client.query<{ invented: boolean }>('SELECT invented FROM exposure_records WHERE email = $1 FOR UPDATE', [key]);
      // A record takes the kind of its latest writer: a real lookup turns an invented record real.
      await client.query('INSERT INTO exposure_records (email, invented) VALUES ($1, $2) ON CONFLICT (email) DO UPDATE SET invented = excluded.invented', [key, invented]);
      // Taken in the same order by every writer of this email, so two instances recording a new
      // email's demo exposures at once queue rather than interleave.
      await client.query('SELECT 1 FROM exposure_records WHERE email = $1 FOR UPDATE', [key]);
      // A real answer no longer naming a breach that left the catalog keeps it: the person's history
      // (HIBP stops listing a retired breach). Invented records, written or replaced, go exactly.
      await client.query(
        invented || before.rows[0]?.invented ? 'DELETE FROM exposures WHERE email = $1' : 'DELETE FROM exposures WHERE email = $1 AND breach_id NOT IN (SELECT id FROM removed_breaches)',
        [key],
      );
      await client.query('INSERT INTO exposures (email, breach_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING', [key, [...new Set(breachIds)]]);
      await bumpEmails(client, this.#id, [key]);
    });
    this.#listener?.note([key]);
  }

  async getResolutions(emails: readonly string[]): Promise<ResolutionRow[]> {
    const { rows } = await this.#query<{ email: string; breach_id: string; data_class: string; resolved_at: string }>(
      `SELECT email, breach_id, data_class, resolved_at FROM resolutions WHERE email = ANY($1::text[])
       ORDER BY email COLLATE "C", breach_id COLLATE "C", data_class_key COLLATE "C"`,
      [emailList(emails)],
    );
    return rows.map((row) => ({ email: row.email, breachId: row.breach_id, dataClass: row.data_class, resolvedAt: row.resolved_at }));
  }

  async applyResolutionChanges(changes: readonly ResolutionChange[], now: string): Promise<void> {
    validResolvedAt(now);
    if (changes.length === 0) return;
    // SERIALIZABLE: the batch checks the catalog and writes resolutions; a catalog replaced or a
    // concurrent batch on the same rows in between makes one of the two retry, never half-apply.
    await this.#transaction('SERIALIZABLE', async (client) => {
      const ids = [...new Set(changes.map((change) => change.breachId))];
      // A breach that left the catalog is still resolvable by its last known data classes.
      const { rows } = await client.query<{ id: string; data_classes: string[] }>(
        `SELECT id, data_classes FROM breaches WHERE id = ANY($1::text[])
         UNION ALL SELECT id, breach->'dataClasses' FROM removed_breaches WHERE id = ANY($1::text[]) AND id NOT IN (SELECT id FROM breaches)`,
        [ids],
      );
      const classesById = new Map(rows.map((row) => [row.id, dataClassSpellings(row.data_classes)]));
      // The batch means what applying its changes one after another means: per key the last
      // change wins, and an unresolve before a final resolve starts a new resolvedAt.
      const final = new Map<string, CheckedResolutionChange & { restart: boolean }>();
      changes.forEach((change, index) => {
        const checked = checkResolutionChange(change, index, classesById);
        const id = `${checked.email}\u0000${checked.breachId}\u0000${checked.key}`;
        const before = final.get(id);
        const restart = (before?.restart ?? false) || (before !== undefined && !before.resolved && checked.resolved);
        final.set(id, { ...checked, restart });
      });
      const removed = [...final.values()].filter((row) => !row.resolved || row.restart);
      const resolved = [...final.values()].filter((row) => row.resolved);
      const changed = new Set<string>();
      if (removed.length > 0) {
        const result = await client.query<{ email: string }>(
          `DELETE FROM resolutions AS r USING unnest($1::text[], $2::text[], $3::text[]) AS d(email, breach_id, data_class_key)
           WHERE r.email = d.email AND r.breach_id = d.breach_id AND r.data_class_key = d.data_class_key RETURNING r.email`,
          [removed.map((row) => row.email), removed.map((row) => row.breachId), removed.map((row) => row.key)],
        );
        for (const row of result.rows) changed.add(row.email);
      }
      if (resolved.length > 0) {
        // On repetition the original resolved_at stays; only a respelled data class is refreshed.
        const result = await client.query<{ email: string }>(
          `INSERT INTO resolutions (email, breach_id, data_class_key, data_class, resolved_at)
           SELECT email, breach_id, data_class_key, data_class, $5 FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS c(email, breach_id, data_class_key, data_class)
           ON CONFLICT (email, breach_id, data_class_key) DO UPDATE SET data_class = excluded.data_class
           WHERE resolutions.data_class <> excluded.data_class
           RETURNING email`,
          [resolved.map((row) => row.email), resolved.map((row) => row.breachId), resolved.map((row) => row.key), resolved.map((row) => row.spelling), now],
        );
        for (const row of result.rows) changed.add(row.email);
      }
      // Only a real change moves revisions: repeating a request leaves caches (and ETags) valid.
      if (changed.size > 0) await bumpEmails(client, this.#id, [...changed]);
      return changed;
    }).then((changed) => this.#listener?.note([...changed]));
  }

  async personEmails(sub: string): Promise<PersonEmailRow[]> {
    return personEmails.listPersonEmails((text, values) => this.#query(text, values), validUserSub(sub));
  }

  async addPersonEmail(sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number): Promise<'added' | 'exists' | 'full'> {
    const key = personEmailKey(sub, email);
    validProof(verifiedBy);
    return this.#transaction('READ COMMITTED', async (client) => {
      const result = await personEmails.addPersonEmail(client, key.sub, key.email, at, verifiedBy, maxRows);
      if (result === 'added') await client.query(BUMP);
      return result;
    });
  }

  async recordCodeSend(sub: string, email: string, send: CodeSend): Promise<CodeSendResult> {
    const key = personEmailKey(sub, email);
    validCodeSend(send);
    return this.#transaction('READ COMMITTED', (client) => personEmails.recordCodeSend(client, key.sub, key.email, send));
  }

  async countCodeAttempt(sub: string, email: string): Promise<PersonEmailRow | undefined> {
    const key = personEmailKey(sub, email);
    return this.#transaction('READ COMMITTED', (client) => personEmails.countCodeAttempt(client, key.sub, key.email));
  }

  async markEmailVerified(sub: string, email: string, at: number): Promise<boolean> {
    const key = personEmailKey(sub, email);
    return this.#transaction('READ COMMITTED', async (client) => {
      const changed = await personEmails.markEmailVerified(client, key.sub, key.email, at);
      if (changed) await client.query(BUMP);
      return changed;
    });
  }

  async removePersonEmail(sub: string, email: string): Promise<boolean> {
    const key = personEmailKey(sub, email);
    const { removed, dataRemoved } = await this.#transaction('READ COMMITTED', async (client) => {
      const result = await personEmails.removePersonEmail(client, key.sub, key.email);
      if (result.dataRemoved) await bumpEmails(client, this.#id, [key.email]);
      else if (result.removed) await client.query(BUMP);
      return result;
    });
    if (dataRemoved) this.#listener?.note([key.email]);
    return removed;
  }

  /** The catalog's own revision (moved by every catalog write, from any instance). */
  /**
   * Ids of the breaches written since catalog revision `revision`, oldest first, from the shared
   * log (whichever instance wrote them), or undefined when the log cannot say: a whole-catalog
   * replacement in between, or a revision older than the log keeps.
   */
  async catalogChangesSince(revision: number): Promise<readonly string[] | undefined> {
    return guarded(this.#where, () => catalogChangesSince(this.#pool, revision));
  }

  async catalogRevision(): Promise<number> {
    const { rows } = await this.#query<{ value: string }>("SELECT value FROM meta WHERE key = 'catalog_revision'");
    return Number(rows[0]?.value ?? 0);
  }

  async revision(): Promise<number> {
    const { rows } = await this.#query<{ value: string }>('SELECT last_value AS value FROM change_counter');
    return Number(rows[0]?.value ?? 0);
  }

  /** One indexed read per request: the catalog's revision and each email's, whoever wrote them. */
  async changeStamp(emails: readonly string[]): Promise<string> {
    const noticed = this.#listener?.stamp(emails);
    if (noticed !== undefined) return noticed;
    // The same form as readAccount's stamps: the catalog's revision, then `.revision` per email.
    const { rows } = await this.#query<{ stamp: string }>({
      name: 'breach-change-stamp',
      text: `SELECT (SELECT value FROM meta WHERE key = 'catalog_revision')::text ||
              coalesce((SELECT string_agg('.' || coalesce(r.revision, 0)::text, '' ORDER BY e.n)
                        FROM unnest($1::text[]) WITH ORDINALITY AS e(email, n) LEFT JOIN email_revisions AS r USING (email)), '') AS stamp`,
      values: [emails.map(emailKey)],
    });
    return rows[0]?.stamp ?? '';
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener?.close();
    await this.#endPool();
  }

  /** A statement on a pooled connection; a `{ name, text, values }` one is prepared once per connection. */
  async #query<R extends pg.QueryResultRow>(sql: string | pg.QueryConfig, values?: unknown[]): Promise<pg.QueryResult<R>> {
    return guarded(this.#where, () => (typeof sql === 'string' ? this.#pool.query<R>(sql, values) : this.#pool.query<R>(sql)));
  }

  /** One transaction at `isolation`, run again (after a short random pause) when it lost a race. */
  #transaction<T>(isolation: 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE', work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    return transaction(this.#pool, this.#where, { isolation, attempts: MAX_ATTEMPTS }, work);
  }
}

async function upsertBreaches(client: pg.PoolClient, breaches: readonly Breach[]): Promise<void> {
  if (breaches.length === 0) return;
  await client.query(
    `INSERT INTO breaches (id, domain, breach_date, added_date, modified_date, data_classes, is_sensitive)
     SELECT b.id, b.domain, b.breach_date, b.added_date, b.modified_date, b.data_classes, b.is_sensitive
     FROM jsonb_to_recordset($1::jsonb) AS b(id text, domain text, breach_date text, added_date text, modified_date text, data_classes jsonb, is_sensitive boolean)
     ON CONFLICT (id) DO UPDATE SET
       domain = excluded.domain, breach_date = excluded.breach_date, added_date = excluded.added_date,
       modified_date = excluded.modified_date, data_classes = excluded.data_classes, is_sensitive = excluded.is_sensitive`,
    [JSON.stringify(breaches.map(toBreachColumns))],
  );
}

/** Each email gets the next value of the shared counter; the meta revision moves with them. */
async function bumpEmails(client: pg.PoolClient, writer: string, emails: string[]): Promise<void> {
  await client.query(
    `INSERT INTO email_revisions (email, revision) SELECT e, nextval('change_counter') FROM unnest($1::text[]) AS e
     ON CONFLICT (email) DO UPDATE SET revision = excluded.revision`,
    [emails.sort()],
  );
  await client.query(BUMP);
  await client.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, changePayload(writer, emails)]);
}

function emailList(emails: readonly string[]): string[] {
  return [...new Set(emails.map(emailKey))];
}
