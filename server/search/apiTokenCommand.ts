import path from 'node:path';
import { ConfigError, type CommandLine, type ServiceConfig } from '../config.ts';
import { ApiTokenRequest, type ApiTokenInfo, type ApiTokenStore } from './ApiTokenStore.ts';
import { API_TOKENS_FILE } from './index.ts';
import { migratePostgresAt } from '../store/postgres/migrate.ts';
import { openPostgresSearchStorage } from './postgresStorage.ts';
import { SqliteApiTokenStore } from './SqliteApiTokenStore.ts';

function describe(info: ApiTokenInfo, now = Date.now()): string {
  const state = info.revokedAt
    ? `revoked ${info.revokedAt}`
    : info.expiresAt && Date.parse(info.expiresAt) <= now
      ? `expired ${info.expiresAt}`
      : info.expiresAt
        ? `expires ${info.expiresAt}`
        : 'no expiry';
  const ips = info.allowIps.length > 0 ? info.allowIps.join(' ') : 'any IP';
  return `${info.id}  ${info.accountId}  ${info.scopes.join(',')}  ${state}  ${ips}${info.name ? `  "${info.name}"` : ''}`;
}

/**
 * `npm run server -- api-token create|list|revoke`, over the store the service uses: the shared
 * PostgreSQL database with `--database-url` (every instance sees the change at once), else the
 * data folder's token file.
 */
export async function runApiTokenCommand(config: ServiceConfig, command: NonNullable<CommandLine['apiToken']>, print: (line: string) => void, expiresIn?: number): Promise<void> {
  // Opened without openStorage: the database is migrated here, as openStorage would.
  if (config.databaseUrl) await migratePostgresAt(config.databaseUrl);
  const storage = config.databaseUrl ? await openPostgresSearchStorage({ url: config.databaseUrl, poolSize: 1, readDetails: () => ({}) }) : undefined;
  const tokens: ApiTokenStore = storage?.tokens ?? new SqliteApiTokenStore(path.join(config.dataDir, API_TOKENS_FILE));
  try {
    if (command.action === 'list') {
      const all = await tokens.list();
      print(all.length === 0 ? 'no API tokens' : all.map((info) => describe(info)).join('\n'));
    } else if (command.action === 'revoke') {
      if (!(await tokens.revoke(command.id!))) throw new ConfigError(`api-token revoke: no token "${command.id}" (see "api-token list")`);
      print(`revoked ${command.id}`);
    } else {
      const parsed = ApiTokenRequest.safeParse({ scopes: command.scopes, allowIps: command.allowIps.length > 0 ? command.allowIps : undefined, expiresIn, name: command.name });
      if (!parsed.success)
        throw new ConfigError(
          `api-token create: ${parsed.error.issues.map((issue) => `${['--scopes', '--expires-in', '--allow-ip', '--name'][['scopes', 'expiresIn', 'allowIps', 'name'].indexOf(String(issue.path[0]))] ?? issue.path.join('.')}${issue.path.length > 1 ? `[${String(issue.path[1])}]` : ''}: ${issue.message}`).join('; ')}`,
        );
      const { id, token, info } = await tokens.create(config.accountId, parsed.data);
      print(`created API token ${id} (${describe(info)})`);
      print('Keep it now: it is not shown again and is stored only as a hash.');
      print(token);
    }
  } finally {
    await tokens.close();
    await storage?.close();
  }
}
