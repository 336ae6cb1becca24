import { ConfigError, type ServiceConfig } from '../config.ts';
import { createLogger } from '../log.ts';
import { openStorage } from '../openStorage.ts';

/**
 * `npm run server -- rtdb-secret create|list|revoke ID --data DIR [--database-url URL]`: works on
 * the database directly (the SQLite file, or PostgreSQL shared by the instances), so it also
 * works while the service runs and takes effect on the next request of every instance.
 */
export async function runSecretCommand(
  config: Pick<ServiceConfig, 'dataDir' | 'databaseUrl' | 'databaseInvalidation'>,
  command: { action: 'create' | 'list' | 'revoke'; id?: string | undefined },
  print: (line: string) => void,
): Promise<void> {
  // The service's one storage seam (it migrates PostgreSQL first), with the smallest pool.
  const storage = await openStorage({ ...config, databasePoolSize: 1 }, createLogger({ level: 'warn' }));
  const store = storage.rtdb;
  try {
    if (command.action === 'create') {
      const { id, secret } = await store.createSecret();
      print(`id:     ${id}`);
      print(`secret: ${secret}`);
      print('Shown once; only a hash is kept. Secrets are discouraged: prefer a service account, and revoke this one when whoever holds it leaves.');
    } else if (command.action === 'list') {
      const secrets = await store.listSecrets();
      if (secrets.length === 0) print('no database secrets');
      for (const s of secrets) print(`${s.id}  created ${s.createdAt}  ${s.revokedAt ? `revoked ${s.revokedAt}` : 'active'}`);
    } else {
      if (!(await store.revokeSecret(command.id!))) throw new ConfigError(`rtdb-secret revoke: no secret has the id "${command.id}"`);
      print(`revoked ${command.id}`);
    }
  } finally {
    await storage.close();
  }
}
