// ProviderClient against a scripted provider (a fetch function): how refresh failures are
// classified, that plain http never leaves loopback, and that discovery is retried.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { parseClientConfig, type ClientConfig } from '../../../electron/core/auth/config.ts';
import { RefreshRefusedError, SignInError } from '../../../electron/core/auth/errors.ts';
import { ProviderClient } from '../../../electron/core/auth/ProviderClient.ts';

const ISSUER = 'http://127.0.0.1:9/oidc';

function discoveryDocument(overrides: Record<string, unknown> = {}) {
  return {
    issuer: ISSUER,
    authorization_endpoint: `${ISSUER}/auth`,
    token_endpoint: `${ISSUER}/token`,
    revocation_endpoint: `${ISSUER}/token/revocation`,
    jwks_uri: `${ISSUER}/jwks`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
    ...overrides,
  };
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/** A provider as a fetch function; `token` answers the token endpoint. */
function provider(token: () => Response | Promise<Response>, document = discoveryDocument()) {
  const requests: string[] = [];
  const fetchImpl = (async (input: string | URL | Request) => {
    const url = String(input);
    requests.push(url);
    if (url.endsWith('/.well-known/openid-configuration')) return json(200, document);
    if (url === document.token_endpoint) return token();
    if (url === document.revocation_endpoint) return new Response('', { status: 200 });
    return new Response('not found', { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

function client(fetchImpl: typeof fetch, config: ClientConfig = parseClientConfig({ issuer: ISSUER })): ProviderClient {
  return new ProviderClient(config, { fetch: fetchImpl });
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('ProviderClient', () => {
  it('refreshes with the resource indicator and reports the rotated token', async () => {
    let body = '';
    const { fetchImpl } = provider(() => json(200, { access_token: 'new-access', refresh_token: 'new-refresh', token_type: 'Bearer', expires_in: 900 }));
    const recording = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).endsWith('/token')) body = String(init?.body);
      return fetchImpl(input, init);
    }) as typeof fetch;
    const tokens = await client(recording).refresh('old-refresh');
    expect(tokens).toMatchObject({ accessToken: 'new-access', refreshToken: 'new-refresh' });
    expect(tokens.expiresAt! - Date.now()).toBeGreaterThan(890_000);
    const form = new URLSearchParams(body);
    expect(Object.fromEntries(form)).toMatchObject({ grant_type: 'refresh_token', refresh_token: 'old-refresh', resource: 'urn:breach-monitor:api', client_id: 'breach-monitor-desktop' });
  });

  it('an OAuth error from the token endpoint means the grant is over', async () => {
    const { fetchImpl } = provider(() => json(400, { error: 'invalid_grant', error_description: 'grant request is invalid' }));
    const error = await failureOf(client(fetchImpl).refresh('r'));
    expect(error).toBeInstanceOf(RefreshRefusedError);
    expect((error as RefreshRefusedError).oauthError).toBe('invalid_grant');
  });

  it.each([
    [503, 'server'],
    [429, 'rate-limited'],
  ])('a %i from the token endpoint is transient (%s)', async (status, kind) => {
    const { fetchImpl } = provider(() => json(status, { error: 'temporarily_unavailable' }));
    const error = await failureOf(client(fetchImpl).refresh('r'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe(kind);
    expect((error as ApiError).transient).toBe(true);
  });

  it('an unreachable provider is a transient network error, and discovery is tried again next time', async () => {
    let up = false;
    const { fetchImpl } = provider(() => json(200, { access_token: 'a', token_type: 'Bearer', expires_in: 60 }));
    const flaky = ((input: string | URL | Request, init?: RequestInit) =>
      up ? fetchImpl(input, init) : Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))) as typeof fetch;
    const subject = client(flaky);
    const error = await failureOf(subject.refresh('r'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('network');
    up = true;
    expect((await subject.refresh('r')).accessToken).toBe('a');
  });

  it('never sends a token over plain http off loopback, whatever discovery says', async () => {
    const { fetchImpl, requests } = provider(() => json(200, {}), discoveryDocument({ token_endpoint: 'http://tokens.example.com/token' }));
    const error = await failureOf(client(fetchImpl).refresh('secret-refresh-token'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as Error).message).toMatch(/without https:\/\/; refused/);
    expect(requests).not.toContain('http://tokens.example.com/token');
  });

  it('refuses a non-loopback http issuer before any request, even if a config slipped past validation', async () => {
    const { fetchImpl, requests } = provider(() => json(200, {}));
    const config = { ...parseClientConfig({}), issuer: 'http://id.example.com' };
    const error = await failureOf(client(fetchImpl, config).configuration());
    expect(error).toBeInstanceOf(SignInError);
    expect((error as SignInError).code).toBe('insecure');
    expect(requests).toEqual([]);
  });

  it('revokes when the provider offers revocation, and says when it does not', async () => {
    const { fetchImpl, requests } = provider(() => json(200, {}));
    expect(await client(fetchImpl).revoke('r', 'refresh_token')).toBe('revoked');
    expect(requests).toContain(`${ISSUER}/token/revocation`);
    const without = provider(() => json(200, {}), discoveryDocument({ revocation_endpoint: undefined }));
    expect(await client(without.fetchImpl).revoke('r', 'refresh_token')).toBe('unsupported');
  });
});
