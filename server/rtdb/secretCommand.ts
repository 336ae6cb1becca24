import path from 'node:path';
import { ConfigError } from '../config.ts';
import { RtdbStore } from './RtdbStore.ts';

/**
 * `npm run server -- rtdb-secret create|list|revoke ID --data DIR`: works on the database file
 * directly, so it also works while the service runs (SQLite serializes the writers) and takes
 * effect on the next request.
 */
export function runSecretCommand(dataDir: string, command: { action: 'create' | 'list' | 'revoke'; id?: string | undefined }, print: (line: string) => void): void {
  const store = new RtdbStore(path.join(dataDir, 'rtdb.db'));
  try {
    if (command.action === 'create') {
      const { id, secret } = store.createSecret();
      print(`id:     ${id}`);
      print(`secret: ${secret}`);
      print('Shown once; only a hash is kept. Secrets are discouraged: prefer a service account, and revoke this one when whoever holds it leaves.');
    } else if (command.action === 'list') {
      const secrets = store.listSecrets();
      if (secrets.length === 0) print('no database secrets');
      for (const s of secrets) print(`${s.id}  created ${s.createdAt}  ${s.revokedAt ? `revoked ${s.revokedAt}` : 'active'}`);
    } else {
      if (!store.revokeSecret(command.id!)) throw new ConfigError(`rtdb-secret revoke: no secret has the id "${command.id}"`);
      print(`revoked ${command.id}`);
    }
  } finally {
    store.close();
  }
}
