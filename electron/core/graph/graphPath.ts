import path from 'node:path';
import { accountId } from '../accounts/accountId.ts';

// In the core, not engine/graph: the account naming is the desktop's, and the service, which
// mounts the engine, has no use for it.

/** `<dataDir>/accounts/<accountId>.graph.db`, beside the account's own database. */
export function graphDatabasePath(dataDir: string, issuer: string, subject: string): string {
  return path.join(dataDir, 'accounts', `${accountId(issuer, subject)}.graph.db`);
}
