import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { LOCAL_SERVICE } from '../../../shared/api/localService.ts';
import { ApiContract } from '../../../shared/api/firefox.ts';

export const DEFAULT_ISSUER = LOCAL_SERVICE.issuer;
export const DEFAULT_CLIENT_ID = 'breach-monitor-desktop';
export const DEFAULT_AUDIENCE = 'urn:breach-monitor:api';
export const DEFAULT_SCOPES = 'openid email offline_access';
export const DEFAULT_API_BASE_URL = LOCAL_SERVICE.serviceUrl;
export const DEFAULT_REDIRECT_PATH = '/callback';

const FLOW_PARAMS = new Set(['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'resource']);
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Plain http is only acceptable when it never leaves the machine (RFC 8252 §8.3 for redirects, dev servers for the rest). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

const SecureUrl = z
  .string({ error: 'must be a URL' })
  .refine((value) => URL.canParse(value), 'must be an absolute URL, e.g. https://accounts.example.com')
  .refine((value) => {
    if (!URL.canParse(value)) return true; // reported by the check above
    const url = new URL(value);
    return url.protocol === 'https:' || isLoopbackHttp(url);
  }, 'must use https:// (plain http:// is allowed only for 127.0.0.1, [::1] and localhost)')
  .transform((value) => value.replace(/\/+$/, ''));

const RedirectPath = z
  .string({ error: 'must be a path such as /callback' })
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/, 'must be a path such as /callback')
  .default(DEFAULT_REDIRECT_PATH);

const Port = z.int({ error: 'must be a whole number from 1 to 65535' }).min(1, 'must be a whole number from 1 to 65535').max(65535, 'must be a whole number from 1 to 65535');

/**
 * Where the provider sends the browser back. Most providers accept any port on loopback
 * (RFC 8252 §7.3); some register one exact redirect URI, which needs a fixed port and path.
 */
export const RedirectConfig = z.discriminatedUnion(
  'mode',
  [z.strictObject({ mode: z.literal('loopback-any-port'), path: RedirectPath }), z.strictObject({ mode: z.literal('fixed'), port: Port, path: RedirectPath })],
  { error: 'mode must be "loopback-any-port" or "fixed"' },
);
export type RedirectConfig = z.infer<typeof RedirectConfig>;

export const ClientConfig = z.strictObject({
  issuer: SecureUrl.default(DEFAULT_ISSUER),
  clientId: z.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string').default(DEFAULT_CLIENT_ID),
  /** Resource indicator (RFC 8707) of the breach-alert API: the `aud` of the access tokens. */
  audience: z.string({ error: 'must be a non-empty string' }).min(1, 'must be a non-empty string').default(DEFAULT_AUDIENCE),
  /** Space-separated, as on the wire. */
  scopes: z
    .string({ error: 'must be a space-separated list of scopes' })
    .transform((value) => value.trim().split(/\s+/).filter(Boolean).join(' '))
    .refine((value) => value.split(' ').includes('openid'), 'must include "openid"')
    .default(DEFAULT_SCOPES),
  redirect: RedirectConfig.default({ mode: 'loopback-any-port', path: DEFAULT_REDIRECT_PATH }),
  apiBaseUrl: SecureUrl.default(DEFAULT_API_BASE_URL),
  /** Which contract the service speaks: `firefox-v1` has no `POST /user` (people sign up on its site). */
  apiContract: ApiContract.default('v1'),
  /** How long the browser part of a sign-in may take before the listener gives up. */
  signInTimeoutSeconds: z.int({ error: 'must be a whole number of seconds' }).min(10, 'must be at least 10').max(3600, 'must be at most 3600').default(300),
  /** Extra authorization parameters some providers need (e.g. `access_type=offline`); never the ones the flow owns. */
  authorizationParams: z
    .record(z.string(), z.string(), { error: 'must be an object of string values' })
    .refine((params) => !Object.keys(params).some((key) => FLOW_PARAMS.has(key)), `may not set ${[...FLOW_PARAMS].join(', ')}: the sign-in flow sets those itself`)
    .default({}),
});
export type ClientConfig = z.infer<typeof ClientConfig>;
export type ClientConfigInput = z.input<typeof ClientConfig>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Environment variables and the config key each one sets. */
export const CONFIG_ENV = {
  BREACH_MONITOR_ISSUER: 'issuer',
  BREACH_MONITOR_CLIENT_ID: 'clientId',
  BREACH_MONITOR_AUDIENCE: 'audience',
  BREACH_MONITOR_SCOPES: 'scopes',
  BREACH_MONITOR_API_BASE_URL: 'apiBaseUrl',
  BREACH_MONITOR_REDIRECT_PORT: 'redirect.port',
  BREACH_MONITOR_REDIRECT_PATH: 'redirect.path',
  BREACH_MONITOR_SIGN_IN_TIMEOUT_SECONDS: 'signInTimeoutSeconds',
} as const;

/** Validates a config object, naming every bad key: `redirect.port: must be a whole number from 1 to 65535`. */
export function parseClientConfig(input: unknown, describeKey: (key: string) => string = (key) => key): ClientConfig {
  const parsed = ClientConfig.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const key = issue.path.join('.');
    // An unknown key is reported on its parent with the names in `keys`.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((name) => (key ? `${key}.${name}` : name)) : [key];
    const message = issue.code === 'unrecognized_keys' ? 'is not a setting' : issue.message;
    return keys.map((name) => `${name ? describeKey(name) : '(config)'}: ${message}`).join('; ');
  });
  throw new ConfigError(`invalid sign-in configuration — ${lines.join('; ')}`);
}

/**
 * The sign-in configuration: defaults (the local reference service), then the JSON file, then
 * `BREACH_MONITOR_*` environment variables. A missing file is fine; an unreadable or invalid
 * one is an error that names the file and the key.
 */
export function loadClientConfig(options: { file?: string | undefined; env?: Record<string, string | undefined> } = {}): ClientConfig {
  const env = options.env ?? process.env;
  const file = env.BREACH_MONITOR_CONFIG || options.file;
  const fromFile = file ? readConfigFile(file) : {};
  const merged: Record<string, unknown> = { ...fromFile };
  const sources = new Map<string, string>();

  for (const [variable, key] of Object.entries(CONFIG_ENV)) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    sources.set(key, variable);
    if (key === 'redirect.port' || key === 'redirect.path') {
      const current = isRecord(merged.redirect) ? merged.redirect : {};
      const value = key === 'redirect.port' ? numberOrText(raw) : raw;
      // Setting a port means the provider registered one exact redirect URI.
      merged.redirect = key === 'redirect.port' ? { ...current, mode: 'fixed', port: value } : { mode: 'loopback-any-port', ...current, path: value };
    } else {
      merged[key] = key === 'signInTimeoutSeconds' ? numberOrText(raw) : raw;
    }
  }

  return parseClientConfig(merged, (key) => {
    const variable = sources.get(key);
    if (variable) return `${key} (from ${variable})`;
    return file && hasPath(fromFile, key) ? `${key} (in ${file})` : key;
  });
}

function readConfigFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read the sign-in configuration ${file}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`the sign-in configuration ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isRecord(json)) throw new ConfigError(`the sign-in configuration ${file} must hold a JSON object`);
  return json;
}

function numberOrText(raw: string): number | string {
  return /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasPath(object: Record<string, unknown>, key: string): boolean {
  let current: unknown = object;
  for (const part of key.split('.')) {
    if (!isRecord(current) || !(part in current)) return false;
    current = current[part];
  }
  return true;
}

/** The exact redirect URI for a listener on `port`. Always the IP literal: `localhost` may resolve elsewhere (RFC 8252 §8.3). */
export function redirectUriFor(redirect: RedirectConfig, port: number): string {
  return `http://127.0.0.1:${port}${redirect.path}`;
}
