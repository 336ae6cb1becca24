import { readFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { Email } from '../shared/api/index.ts';

export const DEFAULT_PORT = 6060;
export const DEFAULT_AUDIENCE = 'urn:breach-monitor:api';

/** Demo extras: a person rarely monitors only the address they sign in with. */
export const DEFAULT_EXTRA_EMAILS: Record<string, string[]> = {
  alice: ['alice.work@example.com', 'alice@example.net'],
  bob: ['bob.smith@example.org'],
};

export const ServiceConfig = z.strictObject({
  port: z.int().min(0).max(65535).default(DEFAULT_PORT),
  host: z.string().min(1).default('127.0.0.1'),
  dataDir: z.string().min(1),
  dev: z.boolean().default(false),
  catalogFile: z.string().min(1).optional(),
  /** An external OpenID provider; when absent the development provider is mounted at `/oidc`. */
  issuer: z.url().optional(),
  audience: z.string().min(1).default(DEFAULT_AUDIENCE),
  jwksUrl: z.url().optional(),
  extraEmails: z.record(z.string(), z.array(Email)).default(DEFAULT_EXTRA_EMAILS),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** API key of the graph endpoint (`/v2/node`); with `dev` and none given, `dev-key`; otherwise the endpoint refuses everything. */
  graphKey: z.string().min(1).optional(),
});
export type ServiceConfig = z.infer<typeof ServiceConfig>;
export type ServiceConfigInput = z.input<typeof ServiceConfig>;

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
  catalog: { type: 'string' },
  issuer: { type: 'string' },
  audience: { type: 'string' },
  'jwks-url': { type: 'string' },
  'log-level': { type: 'string' },
  'graph-key': { type: 'string' },
  'extra-emails': { type: 'string' },
  sub: { type: 'string' },
  email: { type: 'string' },
  'expires-in': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface CommandLine {
  command: 'serve' | 'token' | 'help' | 'rtdb-secret';
  /** `rtdb-secret create|list|revoke ID`. */
  secret?: { action: 'create' | 'list' | 'revoke'; id?: string | undefined };
  config: ServiceConfig;
  token: { sub?: string | undefined; email?: string | undefined; expiresIn?: number | undefined };
}

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
        : positionals.length === 0
          ? 'serve'
          : undefined;
  if (!command) throw new ConfigError(`unknown command "${positionals[0]}"; use "token", "rtdb-secret" or no command`);
  const secret = command === 'rtdb-secret' ? parseSecretCommand(positionals.slice(1)) : undefined;
  if (command !== 'rtdb-secret' && positionals.length > 1) throw new ConfigError(`unexpected argument "${positionals[1]}"`);
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
      catalogFile: pick(values.catalog, env.BREACH_SERVICE_CATALOG),
      issuer: pick(values.issuer, env.BREACH_SERVICE_ISSUER),
      audience: pick(values.audience, env.BREACH_SERVICE_AUDIENCE),
      jwksUrl: pick(values['jwks-url'], env.BREACH_SERVICE_JWKS_URL),
      logLevel: pick(values['log-level'], env.LOG_LEVEL),
      graphKey: pick(values['graph-key'], env.GRAPH_API_KEY),
      extraEmails: readExtraEmails(pick(values['extra-emails'], env.BREACH_SERVICE_EXTRA_EMAILS)),
    }),
  );
  return {
    command,
    ...(secret ? { secret } : {}),
    config,
    token: { sub: values.sub, email: values.email, expiresIn: number('expires-in', values['expires-in']) },
  };
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
