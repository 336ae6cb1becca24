import { emailKey, EmailVerificationMode, PersonEmailList, UserChecks, type PersonEmail } from '../../../shared/api/index.ts';
import type { AddressRemoval } from '../../../shared/ipc/index.ts';
import { parseCodeList } from './codeLists.ts';
import { markGone, recomputeOverlay } from './breachQueries.ts';
import { statement, type ReadableDB, type WritableDB } from './Interface.ts';
import { getSyncState, setSyncState } from './syncStateQueries.ts';

interface Row {
  emails_json: string | null;
  served: 'yes' | 'no' | 'unknown';
  verification: string | null;
  updated_at: string | null;
  error: string | null;
}

/** What is stored of the service's list; a stored answer that no longer parses counts as none. */
export interface StoredAddresses {
  served: 'yes' | 'no' | 'unknown';
  addresses: PersonEmail[];
  verification: EmailVerificationMode | null;
  updatedAt: string | null;
  problem: string | null;
}

export function readAddresses(db: ReadableDB): StoredAddresses {
  const row = statement(db, 'SELECT emails_json, served, verification, updated_at, error FROM user_emails WHERE id = 1').get() as Row | undefined;
  if (!row) return { served: 'unknown', addresses: [], verification: null, updatedAt: null, problem: null };
  let addresses: PersonEmail[] = [];
  if (row.emails_json !== null) {
    const parsed = PersonEmailList.safeParse(JSON.parse(row.emails_json));
    if (parsed.success) addresses = parsed.data;
  }
  const verification = EmailVerificationMode.safeParse(row.verification);
  return { served: row.served, addresses, verification: verification.success ? verification.data : null, updatedAt: row.updated_at, problem: row.error };
}

/** Records an answer of `GET /user/emails` (undefined: the service does not serve it). */
export function recordAddresses(db: WritableDB, list: { emails: PersonEmailList; verification: EmailVerificationMode | undefined } | undefined, now: string): void {
  if (list === undefined) statement(db, "UPDATE user_emails SET emails_json = NULL, served = 'no', verification = NULL, updated_at = ?, error = NULL WHERE id = 1").run(now);
  else
    statement(db, "UPDATE user_emails SET emails_json = ?, served = 'yes', verification = ?, updated_at = ?, error = NULL WHERE id = 1").run(
      JSON.stringify(list.emails),
      list.verification ?? null,
      now,
    );
}

/** Why the last refresh failed; what was listed before stays. */
export function recordAddressesProblem(db: WritableDB, problem: string): void {
  statement(db, 'UPDATE user_emails SET error = ? WHERE id = 1').run(problem);
}

/** One address as the service answered for it (added, or listed again), replacing what was stored of it. */
export function recordAddress(db: WritableDB, address: PersonEmail): void {
  const current = readAddresses(db).addresses.filter((stored) => emailKey(stored.email) !== emailKey(address.email));
  statement(db, "UPDATE user_emails SET emails_json = ?, served = 'yes' WHERE id = 1").run(JSON.stringify([...current, address]));
}

/** The breaches naming an address, and whether each names any other. */
function breachesNaming(db: ReadableDB, email: string): { id: string; others: number }[] {
  return (
    statement(
      db,
      `SELECT b.id, (SELECT count(*) FROM breached_accounts o WHERE o.breach_key = a.breach_key AND o.email <> a.email)
         FROM breached_accounts a JOIN breaches b ON b.key = a.breach_key WHERE a.email = ?`,
    )
      .raw()
      .all(email) as [string, number][]
  ).map(([id, others]) => ({ id, others }));
}

/** What removing `email` takes with it here: its breaches (and those naming no other address), and what was marked as dealt with for it. */
export function removalOf(db: ReadableDB, email: string): AddressRemoval {
  const key = emailKey(email);
  const breaches = breachesNaming(db, key);
  const confirmed = (statement(db, 'SELECT resolved_codes FROM breached_accounts WHERE email = ?').pluck().all(key) as string[]).reduce((sum, codes) => sum + parseCodeList(codes).length, 0);
  const intents = statement(db, 'SELECT count(*) FROM outbox WHERE email = ? AND resolved = 1').pluck().get(key) as number;
  return { email: key, breaches: breaches.length, onlyThisAddress: breaches.filter((breach) => breach.others === 0).length, resolutions: confirmed + intents };
}

/**
 * Forgets an address the service has removed, in one transaction: its rows of the breached
 * accounts, every change the person made for it (sent or waiting in the outbox), the breaches that
 * named only it (recorded as gone, so a re-added address's breaches are not news), the "New"
 * marks of those, and the address in the stored lists and checks. The breaches it shared with
 * another address keep that one, their counts recomputed. The ETag goes, so the next pull is whole.
 */
export function forgetAddress(db: WritableDB, email: string, now: string): AddressRemoval {
  const key = emailKey(email);
  return db
    .transaction(() => {
      const removal = removalOf(db, key);
      const breaches = breachesNaming(db, key);
      const onlyThis = breaches.filter((breach) => breach.others === 0).map((breach) => breach.id);
      statement(db, 'DELETE FROM breached_accounts WHERE email = ?').run(key);
      statement(db, 'DELETE FROM outbox WHERE email = ?').run(key);
      if (onlyThis.length > 0) {
        statement(db, 'DELETE FROM breaches WHERE id IN (SELECT value FROM json_each(?))').run(JSON.stringify(onlyThis));
        markGone(db, onlyThis, now);
        const marks = JSON.parse(getSyncState(db, 'newBreachIds') ?? '[]') as string[];
        const gone = new Set(onlyThis);
        setSyncState(db, 'newBreachIds', JSON.stringify(marks.filter((id) => !gone.has(id))));
      }
      recomputeOverlay(
        db,
        breaches.filter((breach) => breach.others > 0).map((breach) => breach.id),
      );
      setSyncState(db, 'etag', undefined);
      const stored = readAddresses(db);
      statement(db, 'UPDATE user_emails SET emails_json = ? WHERE id = 1 AND emails_json IS NOT NULL').run(JSON.stringify(stored.addresses.filter((address) => emailKey(address.email) !== key)));
      forgetInChecks(db, key);
      return removal;
    })
    .immediate();
}

/** The address leaves the stored `GET /user/checks` answer and its "already listed" set. */
function forgetInChecks(db: WritableDB, key: string): void {
  const row = statement(db, 'SELECT checks_json, listed_json FROM breach_data WHERE id = 1').get() as { checks_json: string | null; listed_json: string | null } | undefined;
  if (!row) return;
  let checksJson = row.checks_json;
  if (checksJson !== null) {
    const parsed = UserChecks.safeParse(JSON.parse(checksJson));
    if (parsed.success) {
      const checks = parsed.data;
      checksJson = JSON.stringify({
        ...checks,
        addresses: checks.addresses.filter((address) => emailKey(address.email) !== key),
        stealerLogs: { ...checks.stealerLogs, entries: checks.stealerLogs.entries.filter((entry) => emailKey(entry.email) !== key) },
      });
    }
  }
  const listed = row.listed_json === null ? null : JSON.stringify((JSON.parse(row.listed_json) as string[]).filter((email) => email !== key));
  statement(db, 'UPDATE breach_data SET checks_json = ?, listed_json = ? WHERE id = 1').run(checksJson, listed);
}
