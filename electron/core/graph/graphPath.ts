import path from 'node:path';
import { accountId } from '../accounts/accountId.ts';

// Apart from graphDatabase.ts so the service, which imports the engine, does not load the
// desktop's account naming.

/** `<dataDir>/accounts/<accountId>.graph.db`, beside the account's own database. */
export function graphDatabasePath(dataDir: string, issuer: string, subject: string): string {
  return path.join(dataDir, 'accounts', `${accountId(issuer, subject)}.graph.db`);
}
