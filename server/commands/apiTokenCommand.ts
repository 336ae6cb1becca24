import { ConfigError, type CommandLine, type ServiceConfig } from '../config.ts';
import { createLogger } from '../log.ts';
import { openStorage } from '../openStorage.ts';
import { ApiTokenRequest, type ApiTokenInfo } from '../search/ApiTokenStore.ts';

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
  // The service's one storage seam (it migrates PostgreSQL first); the index is never read here.
  const storage = await openStorage({ ...config, databasePoolSize: 1 }, createLogger({ level: 'warn' }));
  try {
    const { tokens } = await storage.search({ readDetails: () => ({}), readDetailsOf: () => undefined });
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
    await storage.close();
  }
}
