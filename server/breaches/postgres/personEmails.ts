import type pg from 'pg';
import type { AddedEmailProof, CodeSend, CodeSendResult, PersonEmailRow } from '../BreachStore.ts';
import { fromPersonEmailRow, type StoredPersonEmail } from '../personEmailRules.ts';

// A person's added addresses on PostgreSQL: the statements of each `PostgresBreachStore` method,
// run inside its transaction. Writes about one person take a transaction-scoped advisory lock on
// that person first (and sends one on the address), so two instances counting against the same
// limit queue rather than both pass it.

/** The columns of a `StoredPersonEmail` (also read with the account, PostgresBreachStore.readAccount). */
export const PERSON_EMAIL_COLUMNS = 'email, added_at, verified_at, verified_by, code_hash, code_expires_at, code_attempts';

async function lockPerson(client: pg.PoolClient, sub: string): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('person-emails:' || $1))", [sub]);
}

async function row(client: pg.PoolClient, sub: string, email: string): Promise<StoredPersonEmail | undefined> {
  return (await client.query<StoredPersonEmail>(`SELECT ${PERSON_EMAIL_COLUMNS} FROM person_emails WHERE sub = $1 AND email = $2`, [sub, email])).rows[0];
}

export async function listPersonEmails(query: (text: string, values: unknown[]) => Promise<pg.QueryResult<StoredPersonEmail>>, sub: string): Promise<PersonEmailRow[]> {
  return (await query(`SELECT ${PERSON_EMAIL_COLUMNS} FROM person_emails WHERE sub = $1 ORDER BY added_at, email`, [sub])).rows.map(fromPersonEmailRow);
}

export async function addPersonEmail(client: pg.PoolClient, sub: string, email: string, at: number, verifiedBy: AddedEmailProof | null, maxRows: number): Promise<'added' | 'exists' | 'full'> {
  await lockPerson(client, sub);
  if (await row(client, sub, email)) return 'exists';
  const { rows } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM person_emails WHERE sub = $1', [sub]);
  if (rows[0]!.n >= maxRows) return 'full';
  await client.query('INSERT INTO person_emails (sub, email, added_at, verified_at, verified_by) VALUES ($1, $2, $3, $4, $5)', [sub, email, at, verifiedBy ? at : null, verifiedBy]);
  return 'added';
}

export async function recordCodeSend(client: pg.PoolClient, sub: string, email: string, send: CodeSend): Promise<CodeSendResult> {
  await lockPerson(client, sub);
  await client.query("SELECT pg_advisory_xact_lock(hashtext('verification-sends:' || $1))", [email]);
  const current = await row(client, sub, email);
  if (!current) return 'missing';
  if (current.verified_at !== null) return 'verified';
  await client.query('DELETE FROM verification_sends WHERE sent_at < $1', [send.since]);
  const count = async (column: 'email' | 'sub', value: string) =>
    (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM verification_sends WHERE ${column} = $1 AND sent_at >= $2`, [value, send.since])).rows[0]!.n;
  if ((await count('email', email)) >= send.perAddress) return 'address-limit';
  if ((await count('sub', sub)) >= send.perPerson) return 'person-limit';
  await client.query('INSERT INTO verification_sends (sub, email, sent_at) VALUES ($1, $2, $3)', [sub, email, send.at]);
  await client.query('UPDATE person_emails SET code_hash = $1, code_expires_at = $2, code_attempts = 0 WHERE sub = $3 AND email = $4', [send.codeHash, send.expiresAt, sub, email]);
  return 'recorded';
}

export async function countCodeAttempt(client: pg.PoolClient, sub: string, email: string): Promise<PersonEmailRow | undefined> {
  const { rows } = await client.query<StoredPersonEmail>(`UPDATE person_emails SET code_attempts = code_attempts + 1 WHERE sub = $1 AND email = $2 RETURNING ${PERSON_EMAIL_COLUMNS}`, [sub, email]);
  return rows[0] && fromPersonEmailRow(rows[0]);
}

export async function markEmailVerified(client: pg.PoolClient, sub: string, email: string, at: number): Promise<boolean> {
  const { rowCount } = await client.query("UPDATE person_emails SET verified_at = $1, verified_by = 'code', code_hash = NULL, code_expires_at = NULL WHERE sub = $2 AND email = $3", [at, sub, email]);
  return rowCount === 1;
}

/** Removes the row; when nobody else has proven the address theirs, what is known about it too. */
export async function removePersonEmail(client: pg.PoolClient, sub: string, email: string): Promise<{ removed: boolean; dataRemoved: boolean }> {
  await lockPerson(client, sub);
  const { rows } = await client.query<{ verified_at: string | null }>('DELETE FROM person_emails WHERE sub = $1 AND email = $2 RETURNING verified_at', [sub, email]);
  if (rows.length === 0) return { removed: false, dataRemoved: false };
  const others = await client.query('SELECT 1 FROM person_emails WHERE email = $1 AND verified_at IS NOT NULL LIMIT 1', [email]);
  const dataRemoved = rows[0]!.verified_at !== null && others.rowCount === 0;
  if (dataRemoved) {
    for (const table of ['resolutions', 'exposures', 'exposure_records', 'catalog_changes', 'address_checks']) await client.query(`DELETE FROM ${table} WHERE email = $1`, [email]);
  }
  return { removed: true, dataRemoved };
}
