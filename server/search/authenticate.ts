import type { IncomingMessage } from 'node:http';
import { SearchCodes, SERVICE_KEY_END_OF_LIFE } from '../../shared/search/index.ts';
import { ipAllowed, type ApiTokenInfo, type ApiTokenScope, type ApiTokenStore } from './ApiTokenStore.ts';
import { SearchError } from './envelope.ts';

const CHALLENGE = { 'www-authenticate': 'Bearer realm="ai-search"' };

/**
 * The caller's API token, checked for the account in the path and the scope the endpoint
 * needs. Only `Authorization: Bearer <API_TOKEN>` is accepted; Service Keys are past their end
 * of life and are refused with a message that says what to use instead.
 */
export async function authenticateApiToken(req: IncomingMessage, tokens: ApiTokenStore, accountId: string, scope: ApiTokenScope, now = Date.now()): Promise<ApiTokenInfo> {
  if (req.headers['x-auth-user-service-key'] !== undefined) {
    throw new SearchError(
      401,
      SearchCodes.serviceKeyEndOfLife,
      `Service Key authentication (X-Auth-User-Service-Key) reached its end of life on ${SERVICE_KEY_END_OF_LIFE}; use an API token: Authorization: Bearer <API_TOKEN>`,
      { headers: CHALLENGE },
    );
  }
  const header = req.headers.authorization;
  const match = header ? /^Bearer +(\S+) *$/i.exec(header) : null;
  if (!match) throw new SearchError(401, SearchCodes.authentication, 'authentication required: send Authorization: Bearer <API_TOKEN>', { headers: CHALLENGE });
  const token = await tokens.find(match[1]!);
  if (!token) throw new SearchError(401, SearchCodes.authentication, 'the API token is not valid', { headers: CHALLENGE });
  if (token.revokedAt) throw new SearchError(401, SearchCodes.tokenRevoked, `the API token ${token.id} was revoked at ${token.revokedAt}`, { headers: CHALLENGE });
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) throw new SearchError(401, SearchCodes.tokenExpired, `the API token ${token.id} expired at ${token.expiresAt}`, { headers: CHALLENGE });
  const ip = req.socket.remoteAddress ?? '';
  if (token.allowIps.length > 0 && !ipAllowed(ip, token.allowIps)) {
    throw new SearchError(403, SearchCodes.ipNotAllowed, `the API token ${token.id} may not be used from ${ip}; it allows ${token.allowIps.join(', ')}`);
  }
  if (token.accountId !== accountId) throw new SearchError(403, SearchCodes.wrongAccount, `the API token ${token.id} is not valid for account "${accountId}"`);
  if (!token.scopes.includes(scope))
    throw new SearchError(403, SearchCodes.missingScope, `the API token ${token.id} lacks the "${scope}" scope this endpoint needs (it has ${token.scopes.join(', ')})`);
  return token;
}
