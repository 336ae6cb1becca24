import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from './files.ts';

/**
 * Which account was signed in last, so the app can restore it at start-up and, when its
 * sign-in has ended, say whose. Identifiers only: the secrets are in the SecretStore.
 */
const AccountRecord = z.object({
  v: z.literal(1),
  issuer: z.string().min(1),
  subject: z.string().min(1),
  email: z.string().optional(),
  /** `POST /user` has answered 201 or 202 for this account. */
  registered: z.boolean(),
});
export type AccountRecord = z.infer<typeof AccountRecord>;

const FILE_NAME = 'account.json';

export function readAccountRecord(dataDir: string): AccountRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path.join(dataDir, FILE_NAME), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = AccountRecord.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeAccountRecord(dataDir: string, record: AccountRecord): void {
  writeFileAtomic(path.join(dataDir, FILE_NAME), JSON.stringify(AccountRecord.parse(record), null, 2) + '\n');
}

export function deleteAccountRecord(dataDir: string): void {
  rmSync(path.join(dataDir, FILE_NAME), { force: true });
}
