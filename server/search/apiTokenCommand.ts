import path from 'node:path';
import { ConfigError, type CommandLine, type ServiceConfig } from '../config.ts';
import { ApiTokenRequest, ApiTokenStore, type ApiTokenInfo } from './ApiTokenStore.ts';
import { API_TOKENS_FILE } from './index.ts';

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

/** `npm run server -- api-token create|list|revoke`, over the data folder's token file. */
export function runApiTokenCommand(config: ServiceConfig, command: NonNullable<CommandLine['apiToken']>, print: (line: string) => void, expiresIn?: number): void {
  const tokens = new ApiTokenStore(path.join(config.dataDir, API_TOKENS_FILE));
  try {
    if (command.action === 'list') {
      const all = tokens.list();
      print(all.length === 0 ? 'no API tokens' : all.map((info) => describe(info)).join('\n'));
    } else if (command.action === 'revoke') {
      if (!tokens.revoke(command.id!)) throw new ConfigError(`api-token revoke: no token "${command.id}" (see "api-token list")`);
      print(`revoked ${command.id}`);
    } else {
      const parsed = ApiTokenRequest.safeParse({ scopes: command.scopes, allowIps: command.allowIps.length > 0 ? command.allowIps : undefined, expiresIn, name: command.name });
      if (!parsed.success)
        throw new ConfigError(
          `api-token create: ${parsed.error.issues.map((issue) => `${['--scopes', '--expires-in', '--allow-ip', '--name'][['scopes', 'expiresIn', 'allowIps', 'name'].indexOf(String(issue.path[0]))] ?? issue.path.join('.')}${issue.path.length > 1 ? `[${String(issue.path[1])}]` : ''}: ${issue.message}`).join('; ')}`,
        );
      const { id, token, info } = tokens.create(config.accountId, parsed.data);
      print(`created API token ${id} (${describe(info)})`);
      print('Keep it now: it is not shown again and is stored only as a hash.');
      print(token);
    }
  } finally {
    tokens.close();
  }
}
