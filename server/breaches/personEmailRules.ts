import { emailKey } from '../../shared/api/index.ts';
import type { AddedEmailProof, CodeSend, PersonEmailRow } from './BreachStore.ts';
import { validUserSub } from './breachRules.ts';

// The rules of a person's added addresses, kept above the SQLite and PostgreSQL stores so both
// hold exactly the same ones.

/** `sub` and `email` as stored: a subject that is one, and the address in `emailKey` form. */
export function personEmailKey(sub: string, email: string): { sub: string; email: string } {
  validUserSub(sub);
  const key = emailKey(email);
  if (key === '') throw new TypeError('an added address must not be empty');
  return { sub, email: key };
}

export function validProof(proof: AddedEmailProof | null): AddedEmailProof | null {
  if (proof !== null && proof !== 'code' && proof !== 'operator') throw new TypeError(`unknown proof of an address: ${String(proof)}`);
  return proof;
}

export function validCodeSend(send: CodeSend): CodeSend {
  for (const [name, value] of Object.entries({ expiresAt: send.expiresAt, at: send.at, since: send.since })) {
    if (!Number.isSafeInteger(value)) throw new TypeError(`a code send's ${name} must be milliseconds since the epoch`);
  }
  if (!Number.isSafeInteger(send.perAddress) || send.perAddress < 1 || !Number.isSafeInteger(send.perPerson) || send.perPerson < 1) {
    throw new TypeError('a code send needs limits of at least 1');
  }
  if (typeof send.codeHash !== 'string' || send.codeHash === '') throw new TypeError('a code send needs the code hashed');
  return send;
}

/** The stored row of an added address, in either dialect's types (PostgreSQL answers bigint as text). */
export interface StoredPersonEmail {
  email: string;
  added_at: number | string;
  verified_at: number | string | null;
  verified_by: string | null;
  code_hash: string | null;
  code_expires_at: number | string | null;
  code_attempts: number;
}

export function fromPersonEmailRow(row: StoredPersonEmail): PersonEmailRow {
  const time = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    email: row.email,
    addedAt: Number(row.added_at),
    verifiedAt: time(row.verified_at),
    verifiedBy: row.verified_by === null ? null : validProof(row.verified_by as AddedEmailProof),
    codeHash: row.code_hash,
    codeExpiresAt: time(row.code_expires_at),
    codeAttempts: row.code_attempts,
  };
}
