import { readFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Email, EmailRules, LOCAL_SERVICE_PORT, type BreachDataSource, type EmailVerificationMode } from '../shared/api/index.ts';
import { MAX_TIMER_MS } from './timers.ts';

/** The documented base URL of Have I Been Pwned's API v3 (the default of --hibp-url). */
export const HIBP_DEFAULT_URL = 'https://haveibeenpwned.com/api/v3';

export const DEFAULT_PORT = LOCAL_SERVICE_PORT;
export const DEFAULT_AUDIENCE = 'urn:breach-monitor:api';

/**
 * Demo extras: a person rarely monitors only the address they sign in with. Only with demo data
 * (`extraEmailsOf`): on real data a subject that happens to be called `alice` is a real person,
 * who monitors their own addresses, never these.
 */
export const DEFAULT_EXTRA_EMAILS: Record<string, string[]> = {
  alice: ['alice.work@example.com', 'alice@example.net'],
  bob: ['bob.smith@example.org'],
};

/**
 * Limits that keep a slow or greedy client from holding the service's sockets (milliseconds).
 * The idle keep-alive timeout stays long: at 5 s, clients whose event loop was busy reused a
 * socket the service had just closed (ECONNRESET under load); at a cap, an idle connection makes
 * way for a new one (server/http/connections.ts). A connection that sends nothing at all is
 * closed after a few seconds, and an answer whose reader has taken nothing of it for half a minute
 * loses its connection (a reader that stops reading would otherwise hold it, busy, for good). Loopback clients all share one address: the desktop app holds a
 * handful of connections, benches 64, the heaviest test a few hundred, so 256 per address leaves
 * room, while one address still cannot take more than a quarter of the service.
 */
export const HTTP_LIMIT_DEFAULTS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  idleTimeoutMs: 5_000,
  sendTimeoutMs: 30_000,
  maxConnections: 1024,
  maxConnectionsPerIp: 256,
} as const;
/**
 * Limits on the realtime database's streaming reads (server/rtdb/streamSlots.ts, stream.ts). A
 * stream keeps its connection busy for as long as it is open, so the connection caps' rule (the
 * oldest quiet connection makes way) never frees one: the stream caps stay below the connection
 * caps (checked at start; unset, they are half of the service's connection cap and a quarter of an
 * address's), so three quarters of an address's slots and half of the service's are always left
 * to ordinary requests. A person's app streams nothing (it polls with ETags); 16
 * streams per person leave room for scripts and several devices. A stream is ended (and its client
 * reconnects) after an hour, and once its reader leaves 8 MB unread.
 */
const STREAM_SHARE_OF_CONNECTIONS = 1 / 2;
const STREAM_SHARE_OF_ADDRESS_CONNECTIONS = 1 / 4;
export const STREAM_LIMIT_DEFAULTS = {
  maxStreams: HTTP_LIMIT_DEFAULTS.maxConnections * STREAM_SHARE_OF_CONNECTIONS,
  maxStreamsPerIp: HTTP_LIMIT_DEFAULTS.maxConnectionsPerIp * STREAM_SHARE_OF_ADDRESS_CONNECTIONS,
  maxStreamsPerPerson: 16,
  streamMaxLifetimeMs: 3_600_000,
  streamBufferBytes: 8 * 1024 * 1024,
};
/** How long a stopping service lets requests in flight finish before it closes their connections. */
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Longest access-token lifetime (`exp - iat`) the API accepts by default: 24 hours. */
export const DEFAULT_MAX_TOKEN_LIFETIME_SEC = 24 * 3600;
/** How often the breach catalog is fetched again from Have I Been Pwned: 6 hours. */
export const DEFAULT_CATALOG_REFRESH_SEC = 6 * 3600;
/** A checked address is looked up again after a week (a breach added to the catalog makes it due sooner). */
export const DEFAULT_RECHECK_INTERVAL_SEC = 7 * 24 * 3600;
export const DEFAULT_HIBP_TIMEOUT_MS = 10_000;
/** Waits in milliseconds are armed as timers, which Node holds only up to 2³¹ − 1 ms (longer ones fire after 1 ms). */
const TIMER_LIMIT = `must be at most ${MAX_TIMER_MS} ms (about 24.8 days), the longest wait a timer holds`;

/** 127.0.0.0/8, ::1 and `localhost`: addresses no other machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(bare);
}

export const ServiceConfig = z
  .strictObject({
    port: z.int().min(0).max(65535).default(DEFAULT_PORT),
    host: z.string().min(1).default('127.0.0.1'),
    dataDir: z.string().min(1),
    dev: z.boolean().default(false),
    /** Invented exposures (never real, always labelled); unset: on with `dev` unless an HIBP key is given. */
    demo: z.boolean().optional(),
    /** Have I Been Pwned's API key: never logged, never in an error, shown only as its last 4 characters. */
    hibpApiKey: z.string().trim().min(1, 'must not be empty').optional(),
    /** HIBP's API v3 base URL (or a proxy's, or a test double's). */
    hibpUrl: z.url().default(HIBP_DEFAULT_URL),
    /** Domains verified on the key's HIBP account, searched as a whole (`breacheddomain`). */
    hibpDomains: z
      .array(
        z
          .string()
          .trim()
          .toLowerCase()
          .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a domain name such as acme.example'),
      )
      .default([]),
    /** No answer from HIBP within this long counts as a failure (the queue backs off). */
    hibpTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(DEFAULT_HIBP_TIMEOUT_MS),
    /** How often the catalog is fetched again from HIBP (without `catalogFile`). */
    catalogRefreshSec: z.int().min(60).default(DEFAULT_CATALOG_REFRESH_SEC),
    /** How long a checked address stays checked before it is looked up again. */
    recheckIntervalSec: z.int().min(60).default(DEFAULT_RECHECK_INTERVAL_SEC),
    catalogFile: z.string().min(1).optional(),
    /** An external OpenID provider; when absent the development provider is mounted at `/oidc`. */
    issuer: z.url().optional(),
    audience: z.string().min(1).default(DEFAULT_AUDIENCE),
    jwksUrl: z.url().optional(),
    /** `--extra-emails`: the operator's own subject → emails; unset, the demo extras with demo data only (`extraEmailsOf`). */
    extraEmails: z.record(z.string(), z.array(Email)).optional(),
    /** Addresses one person may list (`/user/emails`), the identity account's own included. */
    maxEmails: z.int().min(1).max(1000).default(EmailRules.defaultMaxEmails),
    /**
     * The mail server verification codes go through: `smtps://host[:465]` (TLS) or
     * `smtp://host[:587]` (STARTTLS, required off loopback); may carry `user:password@`. Never logged.
     */
    smtpUrl: z
      .url()
      .refine((value) => /^smtps?:\/\//.test(value), 'must be an smtp:// (STARTTLS) or smtps:// (TLS) URL')
      .optional(),
    /** The From of verification messages. */
    smtpFrom: z.string().trim().min(3).default('Breach Monitor <breach-monitor@localhost>'),
    /**
     * The person's own service, started by the app on their machine: the person is its operator
     * (addresses they add are verified at once) and signs in as its owner with the secret in the
     * data folder (server/identity/owner.ts). Loopback only, with the built-in provider.
     */
    owner: z.boolean().default(false),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** API key of the graph endpoint (`/v2/node`); with `dev` and none given, `dev-key`; otherwise the endpoint refuses everything. */
    graphKey: z.string().min(1).optional(),
    /** The origin clients use when it is not a loopback name (e.g. behind a proxy); its host is accepted in `Host`. */
    publicOrigin: z.url().optional(),
    /** Access tokens whose lifetime (`exp - iat`) is longer get 401. */
    maxTokenLifetimeSec: z.int().min(60).default(DEFAULT_MAX_TOKEN_LIFETIME_SEC),
    /** Time to receive a request's headers, and its whole body. */
    headersTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(HTTP_LIMIT_DEFAULTS.headersTimeoutMs),
    requestTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(HTTP_LIMIT_DEFAULTS.requestTimeoutMs),
    /** An idle kept-alive connection is closed after this long. */
    keepAliveTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(HTTP_LIMIT_DEFAULTS.keepAliveTimeoutMs),
    /** A connection that has sent nothing for this long is closed. */
    idleTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(HTTP_LIMIT_DEFAULTS.idleTimeoutMs),
    /** An answer whose reader takes none of what is waiting to be sent for this long loses its connection. */
    sendTimeoutMs: z.int().min(100).max(MAX_TIMER_MS, TIMER_LIMIT).default(HTTP_LIMIT_DEFAULTS.sendTimeoutMs),
    /** Open connections in all; beyond it the oldest idle one makes way, or the new one is closed when none is idle. */
    maxConnections: z.int().min(1).default(HTTP_LIMIT_DEFAULTS.maxConnections),
    /** Open connections from one address (an IPv6 /64), with the same rule. */
    maxConnectionsPerIp: z.int().min(1).default(HTTP_LIMIT_DEFAULTS.maxConnectionsPerIp),
    /** Open streaming reads (`Accept: text/event-stream`) in all, below `maxConnections` (0: none); unset, half of it. */
    maxStreams: z.int().min(0).optional(),
    /** Open streaming reads from one address (an IPv6 /64), below `maxConnectionsPerIp`; unset, a quarter of it. */
    maxStreamsPerIp: z.int().min(0).optional(),
    /** Open streaming reads of one signed-in caller; their oldest makes way for their newest. */
    maxStreamsPerPerson: z.int().min(1).default(STREAM_LIMIT_DEFAULTS.maxStreamsPerPerson),
    /** A stream ends with `reconnect` after this long (its client opens it again). */
    streamMaxLifetimeMs: z.int().min(1000).default(STREAM_LIMIT_DEFAULTS.streamMaxLifetimeMs),
    /** A stream whose reader leaves more than this many bytes unread ends with `reconnect`. */
    streamBufferBytes: z
      .int()
      .min(64 * 1024)
      .default(STREAM_LIMIT_DEFAULTS.streamBufferBytes),
    /** On SIGTERM (or `close()`), requests in flight get this long to finish before their connections are closed. */
    shutdownGraceMs: z.int().min(0).max(MAX_TIMER_MS, TIMER_LIMIT).default(DEFAULT_SHUTDOWN_GRACE_MS),
    /** PostgreSQL instead of the SQLite file in `dataDir`: shared by every instance given the same URL. */
    databaseUrl: z
      .string()
      .refine((value) => /^postgres(ql)?:\/\//.test(value), 'must be a postgres:// or postgresql:// URL')
      .optional(),
    /**
     * The origin the built-in identity provider names as its issuer (default: this instance's own
     * URL). Instances sharing one database behind one address give that address, so a token one
     * issued is accepted by all.
     */
    identityOrigin: z.url().optional(),
    /** How cached answers learn of other instances' writes on PostgreSQL (see PostgresStoreOptions). */
    databaseInvalidation: z.enum(['check', 'notify']).default('check'),
    /** Most connections one instance opens to PostgreSQL. */
    databasePoolSize: z.int().min(1).max(100).default(10),
    /** The account of the search interface's path (`/client/v4/accounts/{accountId}/…`). */
    accountId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1–64 letters, digits, "-" or "_"')
      .default('local'),
  })
  .superRefine((config, context) => {
    // Streams never make way for other connections: at the connection cap they would lock everyone else out.
    if (config.maxStreams !== undefined && config.maxStreams >= config.maxConnections) {
      context.addIssue({
        code: 'custom',
        path: ['maxStreams'],
        message: `must be below maxConnections (${config.maxConnections}), so open streams always leave room for ordinary requests`,
      });
    }
    if (config.maxStreamsPerIp !== undefined && config.maxStreamsPerIp >= config.maxConnectionsPerIp) {
      context.addIssue({
        code: 'custom',
        path: ['maxStreamsPerIp'],
        message: `must be below maxConnectionsPerIp (${config.maxConnectionsPerIp}), so one address's streams always leave it room for ordinary requests`,
      });
    }
    if (config.demo === true && config.hibpApiKey !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['demo'],
        message: '--demo invents exposures and --hibp-api-key looks them up in Have I Been Pwned: give one of them, not both',
      });
    }
    if (config.hibpApiKey !== undefined) {
      const url = new URL(config.hibpUrl);
      if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) {
        context.addIssue({
          code: 'custom',
          path: ['hibpUrl'],
          message: `the HIBP API key would travel in clear to ${url.host}: use an https:// URL (plain http only on loopback, e.g. a local proxy or test double)`,
        });
      }
    }
    if (config.owner && config.issuer) {
      context.addIssue({
        code: 'custom',
        path: ['owner'],
        message: '--owner signs the owner in through the built-in identity provider, and --issuer replaces it: give one of them, not both',
      });
    }
    // The exposure rules: what is safe on loopback (any-password sign-in, token minting) must
    // never be reachable from another machine.
    if (isLoopbackHost(config.host)) return;
    if (config.owner) {
      context.addIssue({
        code: 'custom',
        path: ['owner'],
        message: `--owner makes whoever holds the data folder's owner secret the operator, so it runs only on a loopback address, not on ${config.host}`,
      });
    }
    if (config.dev) {
      context.addIssue({
        code: 'custom',
        path: ['dev'],
        message: `the development surface mints tokens for any subject, so it runs only on a loopback address, not on ${config.host}; drop --dev or listen on 127.0.0.1`,
      });
    }
    if (!config.issuer) {
      context.addIssue({
        code: 'custom',
        path: ['issuer'],
        message: `listening on ${config.host} needs --issuer (an external OpenID provider): the built-in development provider accepts any password and runs only on loopback`,
      });
    }
  })
  // Unset stream caps follow the connection caps (512 and 64 with theirs at their defaults).
  .transform((config) => ({
    ...config,
    maxStreams: config.maxStreams ?? Math.floor(config.maxConnections * STREAM_SHARE_OF_CONNECTIONS),
    maxStreamsPerIp: config.maxStreamsPerIp ?? Math.floor(config.maxConnectionsPerIp * STREAM_SHARE_OF_ADDRESS_CONNECTIONS),
  }));
export type ServiceConfig = z.infer<typeof ServiceConfig>;
export type ServiceConfigInput = z.input<typeof ServiceConfig>;

/** The graph endpoint's key under `--dev` when none is configured. */
export const DEV_GRAPH_KEY = 'dev-key';

/** The key the graph endpoint (`/v2/node`) asks for: the configured one, the development one under `--dev`, or none (disabled). */
export function graphKeyOf(config: Pick<ServiceConfig, 'graphKey' | 'dev'>): string | undefined {
  return config.graphKey ?? (config.dev ? DEV_GRAPH_KEY : undefined);
}

/**
 * Where the service's exposures come from: `demo` with `--demo` (and with `--dev` unless a key is
 * given), `hibp` with a key, otherwise `none` (nothing is invented; every address stays unknown).
 */
export function breachDataSource(config: Pick<ServiceConfig, 'demo' | 'dev' | 'hibpApiKey'>): BreachDataSource {
  if (config.demo ?? (config.dev && config.hibpApiKey === undefined)) return 'demo';
  return config.hibpApiKey !== undefined ? 'hibp' : 'none';
}

/**
 * What each subject monitors besides its token's email: the operator's `--extra-emails`, or
 * without one the demo extras (alice's and bob's other addresses) with demo data only, and
 * nothing on real data.
 */
export function extraEmailsOf(config: Pick<ServiceConfig, 'demo' | 'dev' | 'hibpApiKey' | 'extraEmails'>): Record<string, string[]> {
  return config.extraEmails ?? (breachDataSource(config) === 'demo' ? DEFAULT_EXTRA_EMAILS : {});
}

/**
 * How the service proves that an added address is the person's: `operator` on the person's own
 * loopback service (`--owner`, or `--dev`, whose surface mints tokens for any subject anyway, so a
 * message would prove nothing), `code` with a mail server, otherwise `unavailable`.
 */
export function emailVerificationMode(config: Pick<ServiceConfig, 'owner' | 'dev' | 'host' | 'smtpUrl'>): EmailVerificationMode {
  if ((config.owner || config.dev) && isLoopbackHost(config.host)) return 'operator';
  return config.smtpUrl ? 'code' : 'unavailable';
}

/** Where a person's applications keep data on this platform. */
export function userDataDir(): string {
  if (platform() === 'win32') return process.env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming');
  if (platform() === 'darwin') return path.join(homedir(), 'Library', 'Application Support');
  return process.env.XDG_DATA_HOME ?? path.join(homedir(), '.local', 'share');
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Parses a config, naming each bad key: `port: must be at most 65535`. */
export function parseServiceConfig(input: unknown): ServiceConfig {
  const parsed = ServiceConfig.safeParse(input);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(config)'}: ${issue.message}`);
  throw new ConfigError(`invalid service configuration — ${lines.join('; ')}`);
}

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  data: { type: 'string' },
  dev: { type: 'boolean' },
  demo: { type: 'boolean' },
  'hibp-api-key': { type: 'string' },
  'hibp-url': { type: 'string' },
  'hibp-domain': { type: 'string', multiple: true },
  'hibp-timeout': { type: 'string' },
  'catalog-refresh': { type: 'string' },
  'recheck-interval': { type: 'string' },
  catalog: { type: 'string' },
  issuer: { type: 'string' },
  audience: { type: 'string' },
  'jwks-url': { type: 'string' },
  'log-level': { type: 'string' },
  'graph-key': { type: 'string' },
  'extra-emails': { type: 'string' },
  'max-emails': { type: 'string' },
  'smtp-url': { type: 'string' },
  'smtp-from': { type: 'string' },
  owner: { type: 'boolean' },
  'public-origin': { type: 'string' },
  'max-token-lifetime': { type: 'string' },
  'headers-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'keep-alive-timeout': { type: 'string' },
  'max-connections': { type: 'string' },
  'idle-timeout': { type: 'string' },
  'send-timeout': { type: 'string' },
  'max-connections-per-ip': { type: 'string' },
  'shutdown-grace': { type: 'string' },
  'max-streams': { type: 'string' },
  'max-streams-per-ip': { type: 'string' },
  'max-streams-per-person': { type: 'string' },
  'stream-max-lifetime': { type: 'string' },
  'stream-buffer': { type: 'string' },
  'database-url': { type: 'string' },
  'identity-origin': { type: 'string' },
  'database-invalidation': { type: 'string' },
  'database-pool-size': { type: 'string' },
  sub: { type: 'string' },
  email: { type: 'string' },
  'expires-in': { type: 'string' },
  'account-id': { type: 'string' },
  scopes: { type: 'string' },
  'allow-ip': { type: 'string', multiple: true },
  name: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CommandLine {
  command: 'serve' | 'token' | 'api-token' | 'help' | 'rtdb-secret';
  /** `rtdb-secret create|list|revoke ID`. */
  secret?: { action: 'create' | 'list' | 'revoke'; id?: string | undefined };
  config: ServiceConfig;
  token: { sub?: string | undefined; email?: string | undefined; expiresIn?: number | undefined };
  /** `api-token create|list|revoke [ID]`: search API tokens (see server/search). */
  apiToken: { action: 'create' | 'list' | 'revoke'; id?: string | undefined; scopes: string[]; allowIps: string[]; name?: string | undefined } | undefined;
}

const API_TOKEN_ACTIONS = ['create', 'list', 'revoke'] as const;

/** Command-line flags over environment variables (`BREACH_SERVICE_*`, `GRAPH_API_KEY`) over defaults. */
export function parseCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ConfigError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const command = values.help
    ? 'help'
    : positionals[0] === 'token'
      ? 'token'
      : positionals[0] === 'rtdb-secret'
        ? 'rtdb-secret'
        : positionals[0] === 'api-token'
          ? 'api-token'
          : positionals.length === 0
            ? 'serve'
            : undefined;
  if (!command) throw new ConfigError(`unknown command "${positionals[0]}"; use "token", "rtdb-secret", "api-token" or no command`);
  const secret = command === 'rtdb-secret' ? parseSecretCommand(positionals.slice(1)) : undefined;
  let apiToken: CommandLine['apiToken'];
  if (command === 'api-token') {
    const action = API_TOKEN_ACTIONS.find((a) => a === positionals[1]);
    if (!action) throw new ConfigError(`api-token: say what to do: ${API_TOKEN_ACTIONS.join(', ')}${positionals[1] ? ` (not "${positionals[1]}")` : ''}`);
    if (action === 'revoke' && !positionals[2]) throw new ConfigError('api-token revoke: name the token id (see "api-token list")');
    if (positionals.length > (action === 'revoke' ? 3 : 2)) throw new ConfigError(`unexpected argument "${positionals[action === 'revoke' ? 3 : 2]}"`);
    apiToken = {
      action,
      id: positionals[2],
      scopes: (values.scopes ?? '')
        .split(',')
        .map((scope) => scope.trim())
        .filter(Boolean),
      allowIps: values['allow-ip'] ?? [],
      name: values.name,
    };
  } else if (command !== 'rtdb-secret' && positionals.length > 1) throw new ConfigError(`unexpected argument "${positionals[1]}"`);
  const number = (key: string, raw: string | undefined) => {
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value)) throw new ConfigError(`${key}: must be a whole number, got "${raw}"`);
    return value;
  };
  const pick = <T>(...candidates: (T | undefined)[]) => candidates.find((value) => value !== undefined && value !== '');
  const config = parseServiceConfig(
    stripUndefined({
      port: number('port', pick(values.port, env.BREACH_SERVICE_PORT)),
      host: pick(values.host, env.BREACH_SERVICE_HOST),
      dataDir: pick(values.data, env.BREACH_SERVICE_DATA) ?? path.join(userDataDir(), 'breach-monitor', 'service'),
      dev: values.dev ?? (env.BREACH_SERVICE_DEV === '1' || env.BREACH_SERVICE_DEV === 'true'),
      demo: values.demo ?? envFlag(env.BREACH_SERVICE_DEMO, 'BREACH_SERVICE_DEMO'),
      hibpApiKey: pick(values['hibp-api-key'], env.BREACH_SERVICE_HIBP_API_KEY),
      hibpUrl: pick(values['hibp-url'], env.BREACH_SERVICE_HIBP_URL),
      hibpDomains: values['hibp-domain'] ?? env.BREACH_SERVICE_HIBP_DOMAINS?.split(',').filter((domain) => domain.trim() !== ''),
      hibpTimeoutMs: number('hibpTimeoutMs', pick(values['hibp-timeout'], env.BREACH_SERVICE_HIBP_TIMEOUT)),
      catalogRefreshSec: number('catalogRefreshSec', pick(values['catalog-refresh'], env.BREACH_SERVICE_CATALOG_REFRESH)),
      recheckIntervalSec: number('recheckIntervalSec', pick(values['recheck-interval'], env.BREACH_SERVICE_RECHECK_INTERVAL)),
      catalogFile: pick(values.catalog, env.BREACH_SERVICE_CATALOG),
      issuer: pick(values.issuer, env.BREACH_SERVICE_ISSUER),
      audience: pick(values.audience, env.BREACH_SERVICE_AUDIENCE),
      jwksUrl: pick(values['jwks-url'], env.BREACH_SERVICE_JWKS_URL),
      logLevel: pick(values['log-level'], env.LOG_LEVEL),
      graphKey: pick(values['graph-key'], env.GRAPH_API_KEY),
      publicOrigin: pick(values['public-origin'], env.BREACH_SERVICE_PUBLIC_ORIGIN),
      maxTokenLifetimeSec: number('maxTokenLifetimeSec', pick(values['max-token-lifetime'], env.BREACH_SERVICE_MAX_TOKEN_LIFETIME)),
      headersTimeoutMs: number('headersTimeoutMs', pick(values['headers-timeout'], env.BREACH_SERVICE_HEADERS_TIMEOUT)),
      requestTimeoutMs: number('requestTimeoutMs', pick(values['request-timeout'], env.BREACH_SERVICE_REQUEST_TIMEOUT)),
      keepAliveTimeoutMs: number('keepAliveTimeoutMs', pick(values['keep-alive-timeout'], env.BREACH_SERVICE_KEEP_ALIVE_TIMEOUT)),
      maxConnections: number('maxConnections', pick(values['max-connections'], env.BREACH_SERVICE_MAX_CONNECTIONS)),
      idleTimeoutMs: number('idleTimeoutMs', pick(values['idle-timeout'], env.BREACH_SERVICE_IDLE_TIMEOUT)),
      sendTimeoutMs: number('sendTimeoutMs', pick(values['send-timeout'], env.BREACH_SERVICE_SEND_TIMEOUT)),
      maxConnectionsPerIp: number('maxConnectionsPerIp', pick(values['max-connections-per-ip'], env.BREACH_SERVICE_MAX_CONNECTIONS_PER_IP)),
      shutdownGraceMs: number('shutdownGraceMs', pick(values['shutdown-grace'], env.BREACH_SERVICE_SHUTDOWN_GRACE)),
      maxStreams: number('maxStreams', pick(values['max-streams'], env.BREACH_SERVICE_MAX_STREAMS)),
      maxStreamsPerIp: number('maxStreamsPerIp', pick(values['max-streams-per-ip'], env.BREACH_SERVICE_MAX_STREAMS_PER_IP)),
      maxStreamsPerPerson: number('maxStreamsPerPerson', pick(values['max-streams-per-person'], env.BREACH_SERVICE_MAX_STREAMS_PER_PERSON)),
      streamMaxLifetimeMs: number('streamMaxLifetimeMs', pick(values['stream-max-lifetime'], env.BREACH_SERVICE_STREAM_MAX_LIFETIME)),
      streamBufferBytes: number('streamBufferBytes', pick(values['stream-buffer'], env.BREACH_SERVICE_STREAM_BUFFER)),
      databaseUrl: pick(values['database-url'], env.BREACH_SERVICE_DATABASE_URL),
      identityOrigin: pick(values['identity-origin'], env.BREACH_SERVICE_IDENTITY_ORIGIN),
      databaseInvalidation: pick(values['database-invalidation'], env.BREACH_SERVICE_DATABASE_INVALIDATION),
      databasePoolSize: number('databasePoolSize', pick(values['database-pool-size'], env.BREACH_SERVICE_DATABASE_POOL_SIZE)),
      accountId: pick(values['account-id'], env.BREACH_SERVICE_ACCOUNT_ID),
      extraEmails: readExtraEmails(pick(values['extra-emails'], env.BREACH_SERVICE_EXTRA_EMAILS)),
      maxEmails: number('maxEmails', pick(values['max-emails'], env.BREACH_SERVICE_MAX_EMAILS)),
      smtpUrl: pick(values['smtp-url'], env.BREACH_SERVICE_SMTP_URL),
      smtpFrom: pick(values['smtp-from'], env.BREACH_SERVICE_SMTP_FROM),
      owner: values.owner ?? envFlag(env.BREACH_SERVICE_OWNER, 'BREACH_SERVICE_OWNER'),
    }),
  );
  return {
    command,
    ...(secret ? { secret } : {}),
    config,
    token: { sub: values.sub, email: values.email, expiresIn: number('expires-in', values['expires-in']) },
    apiToken,
  };
}

/** `1`/`true` on, `0`/`false` off, unset or empty: not given. */
function envFlag(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === '1' || value === 'true') return true;
  if (value === '0' || value === 'false') return false;
  throw new ConfigError(`${name}: use 1, true, 0 or false, not "${value}"`);
}

function parseSecretCommand(args: string[]): NonNullable<CommandLine['secret']> {
  const [action, id, extra] = args;
  if (action !== 'create' && action !== 'list' && action !== 'revoke') throw new ConfigError('rtdb-secret: use "create", "list" or "revoke ID"');
  if (action === 'revoke' && !id) throw new ConfigError('rtdb-secret revoke: the ID of the secret is required (see "rtdb-secret list")');
  if ((action !== 'revoke' && id !== undefined) || extra !== undefined) throw new ConfigError(`rtdb-secret ${action}: unexpected argument "${action === 'revoke' ? extra : id}"`);
  return { action, id };
}

/**
 * `--extra-emails FILE`: a JSON object of subject → emails that subject monitors besides its
 * token's email, e.g. `{"alice": ["alice.work@example.com"]}`. Replaces the demo extras.
 */
function readExtraEmails(file: string | undefined): unknown {
  if (file === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`extraEmails: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function stripUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
