import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../../server/log.ts';
import { createDevIdentityProvider, DEFAULT_API_AUDIENCE, type DevIdentityProvider, type DevIdentityProviderOptions } from '../../../server/identity/index.ts';

/** Collects log lines so tests can assert what was (not) logged. */
export function memoryLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger({ level: 'debug', destination }), lines };
}

export interface IdentityServer {
  origin: string;
  idp: DevIdentityProvider;
  dataDir: string;
  logLines: string[];
  /** Replaces the provider with a fresh one on the same data directory, like a process restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function startIdentityServer(
  options: Partial<Pick<DevIdentityProviderOptions, 'isAccountActive' | 'accessTokenTtlSec' | 'users' | 'ownerSecret'>> & { listenHost?: string } = {},
): Promise<IdentityServer> {
  const { listenHost = '127.0.0.1', ...providerOptions } = options;
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-test-'));
  const { logger, lines } = memoryLogger();
  let idp: DevIdentityProvider | undefined;
  const server: Server = createServer((req, res) => {
    if (idp?.owns(req.url ?? '/')) {
      idp.handle(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, listenHost, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const create = () =>
    createDevIdentityProvider({
      issuer: `${origin}/oidc`,
      audience: DEFAULT_API_AUDIENCE,
      dataDir,
      logger,
      ...providerOptions,
    });
  idp = await create();

  const handle: IdentityServer = {
    origin,
    get idp() {
      if (!idp) throw new Error('identity provider closed');
      return idp;
    },
    dataDir,
    logLines: lines,
    async restart() {
      await idp?.close();
      idp = undefined;
      idp = await create();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await idp?.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}

/** Just enough of RFC 6265 for oidc-provider's cookies: name, value, path, deletion. */
export class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response, requestUrl: URL): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = header.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator);
      const value = pair.slice(separator + 1);
      let path = requestUrl.pathname.replace(/\/[^/]*$/, '') || '/';
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attributeValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = attributeValue;
        if (key.toLowerCase() === 'expires' && Date.parse(attributeValue) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attributeValue) <= 0) expired = true;
      }
      const key = `${name}|${path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { name, value, path });
    }
  }

  headerFor(url: URL): string {
    return [...this.#cookies.values()]
      .filter(({ path }) => url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }
}

/** A browser stand-in: manual redirects, cookies carried between requests. */
export class Browser {
  readonly jar = new CookieJar();

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.jar.headerFor(target);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.jar.store(response, target);
    return response;
  }

  submitForm(action: string | URL, fields: Record<string, string>): Promise<Response> {
    return this.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  /**
   * Follows redirects until a page is shown or the browser is sent to `stopAt` (the app's
   * loopback redirect URI, where nothing listens).
   */
  async follow(start: Response, from: URL, stopAt: string): Promise<{ page: Response; url: URL } | { callback: URL }> {
    let response = start;
    let url = from;
    for (let hops = 0; hops < 10; hops += 1) {
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { page: response, url };
      await response.arrayBuffer();
      url = new URL(location, url);
      if (url.href.startsWith(stopAt)) return { callback: url };
      response = await this.request(url);
    }
    throw new Error('too many redirects');
  }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function formAction(html: string, pageUrl: URL): URL {
  const match = /<form[^>]*\saction="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('page has no form');
  return new URL(match[1].replaceAll('&amp;', '&'), pageUrl);
}

/** The loopback redirect URI with a port, as a native app would register it at runtime (RFC 8252 §7.3). */
export const CALLBACK = 'http://127.0.0.1:53682/callback';

export interface AuthorizationParams {
  scope?: string;
  codeChallenge?: string | undefined;
  codeChallengeMethod?: string | undefined;
  redirectUri?: string;
  extra?: Record<string, string>;
}

export function authorizationUrl(idp: DevIdentityProvider, params: AuthorizationParams): URL {
  const url = new URL(`${idp.issuer}/auth`);
  url.searchParams.set('client_id', idp.clientId);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('redirect_uri', params.redirectUri ?? CALLBACK);
  url.searchParams.set('scope', params.scope ?? 'openid email profile offline_access');
  url.searchParams.set('state', randomBytes(8).toString('hex'));
  url.searchParams.set('nonce', randomBytes(8).toString('hex'));
  if (params.codeChallenge !== undefined) url.searchParams.set('code_challenge', params.codeChallenge);
  if (params.codeChallengeMethod !== undefined) url.searchParams.set('code_challenge_method', params.codeChallengeMethod);
  for (const [key, value] of Object.entries(params.extra ?? {})) url.searchParams.set(key, value);
  return url;
}

export interface SignInResult {
  code: string;
  verifier: string;
  callback: URL;
  browser: Browser;
}

/** Drives the whole browser part: authorize → login page → consent page → redirect with a code. */
export async function signIn(idp: DevIdentityProvider, email: string, options: { scope?: string; extra?: Record<string, string> } = {}): Promise<SignInResult> {
  const browser = new Browser();
  const { verifier, challenge } = pkcePair();
  const start = authorizationUrl(idp, { scope: options.scope, codeChallenge: challenge, codeChallengeMethod: 'S256', extra: options.extra });

  const login = await browser.follow(await browser.request(start), start, CALLBACK);
  if (!('page' in login)) throw new Error(`expected the login page, got ${login.callback.href}`);
  const loginHtml = await login.page.text();
  if (!loginHtml.includes('Sign in')) throw new Error(`expected the login page: ${loginHtml}`);

  const afterLogin = formAction(loginHtml, login.url);
  const consent = await browser.follow(await browser.submitForm(afterLogin, { email, password: 'correct horse' }), afterLogin, CALLBACK);
  if (!('page' in consent)) throw new Error('expected the consent page');
  const consentHtml = await consent.page.text();
  if (!consentHtml.includes('Allow')) throw new Error(`expected the consent page: ${consentHtml}`);

  const afterConsent = formAction(consentHtml, consent.url);
  const done = await browser.follow(await browser.submitForm(afterConsent, { decision: 'allow' }), afterConsent, CALLBACK);
  if (!('callback' in done)) throw new Error(`expected a redirect to the app: ${await done.page.text()}`);
  const code = done.callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${done.callback.href}`);
  return { code, verifier, callback: done.callback, browser };
}

export interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  id_token?: string;
  token_type?: string;
  expires_in?: number;
  scope?: string;
  error?: string;
  error_description?: string;
}

export async function tokenRequest(idp: DevIdentityProvider, fields: Record<string, string>): Promise<{ status: number; body: TokenResponse }> {
  const response = await fetch(`${idp.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: idp.clientId, ...fields }).toString(),
  });
  return { status: response.status, body: (await response.json()) as TokenResponse };
}

export function exchangeCode(idp: DevIdentityProvider, code: string, verifier: string, redirectUri = CALLBACK) {
  return tokenRequest(idp, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri });
}

export function refresh(idp: DevIdentityProvider, refreshToken: string) {
  return tokenRequest(idp, { grant_type: 'refresh_token', refresh_token: refreshToken });
}
