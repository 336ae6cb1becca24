// `npm run server -- [--port 6060] [--data DIR] [--dev] [--catalog FILE]` and
// `npm run server -- token --data DIR --sub S [--email E] [--expires-in SECONDS]`.
// The service and the identity provider load only for the commands that need them, so the
// small commands (rtdb-secret) start quickly.
import { describeCatalogLoad } from './catalog/source.ts';
import { runSecretCommand } from './commands/secretCommand.ts';
import { OwnerSignIn } from '../shared/api/index.ts';
import { ConfigError, parseCommandLine, DEFAULT_PORT, HIBP_DEFAULT_URL } from './config.ts';
import { createLogger } from './log.ts';
import { runApiTokenCommand } from './commands/apiTokenCommand.ts';

const HELP = `Breach-alert reference service

  npm run server -- [--port ${DEFAULT_PORT}] [--data DIR] [--dev] [--demo] [--catalog FILE]
      [--hibp-api-key KEY] [--hibp-url URL] [--hibp-domain DOMAIN ...]
      [--host 127.0.0.1] [--issuer URL --audience AUD [--jwks-url URL]] [--log-level info]
  npm run server -- token --data DIR --sub SUBJECT [--email EMAIL] [--expires-in SECONDS] [--port ${DEFAULT_PORT}]
  npm run server -- api-token create --data DIR --scopes ai-search:read[,ai-search:run] [--expires-in SECONDS]
      [--allow-ip CIDR ...] [--name NAME] [--account-id local] [--database-url URL] (list and revoke take it too)
  npm run server -- api-token list --data DIR
  npm run server -- api-token revoke ID --data DIR
  npm run server -- rtdb-secret create|list|revoke ID --data DIR [--database-url URL]
      legacy database secrets (discouraged: prefer service accounts); revoke one when someone leaves

  --dev       enables the development surface (/__dev/*, loopback only); implies --demo unless a key is given
  --demo      invented exposures, labelled as such (breach-data: demo); never with --hibp-api-key
  --hibp-api-key KEY   check addresses with Have I Been Pwned (better: BREACH_SERVICE_HIBP_API_KEY, not seen in ps)
  --hibp-url URL       HIBP's API base (${HIBP_DEFAULT_URL}); a proxy or a test double
  --hibp-domain DOMAIN a domain verified on the key's HIBP account, searched whole (repeatable)
  --catalog-refresh SECONDS  how often HIBP's catalog is fetched again (21600); --recheck-interval SECONDS (604800)
  --hibp-timeout MS    no answer from HIBP within this counts as a failure (10000)
  Without a key and without --demo the service invents nothing: every address stays "not checked yet".
  --catalog   a Have I Been Pwned catalog file (JSON) instead of fetching it (offline use, tests)
  --issuer    an external OpenID provider; without it the development provider runs at /oidc
  --account-id ID  account of the search interface, /client/v4/accounts/ID/ai-search/… (default local)
  --extra-emails FILE  JSON {"<subject>": ["email", ...]}: emails monitored besides the token's
  --max-emails N       addresses one person may list at /api/v1/user/emails, theirs included (20)
  --smtp-url URL       smtps://host:465 or smtp://host:587 (STARTTLS): sends codes that prove added addresses
  --smtp-from FROM     the From of those messages ("Breach Monitor <breach-monitor@localhost>")
  --owner              the person's own loopback service (started by the app): they sign in as its owner
      with the secret in DIR/owner-secret, and addresses they add are verified at once (they are the operator)
Environment: BREACH_SERVICE_PORT, _HOST, _DATA, _DEV, _DEMO, _HIBP_API_KEY, _HIBP_URL, _HIBP_DOMAINS (comma-separated), _HIBP_TIMEOUT, _CATALOG_REFRESH, _RECHECK_INTERVAL, _CATALOG, _ISSUER, _AUDIENCE, _JWKS_URL, _EXTRA_EMAILS, _MAX_EMAILS, _SMTP_URL, _SMTP_FROM, _OWNER, _ACCOUNT_ID, GRAPH_API_KEY, LOG_LEVEL.
  --graph-key KEY      API key of /v2/node (GRAPH_API_KEY; with --dev and none set: dev-key)
  --host ADDRESS       beyond loopback needs --issuer and refuses --dev
  --public-origin URL  the origin clients use, when not a loopback name (accepted in Host)
  --max-token-lifetime SECONDS  longest accepted access-token lifetime (86400)
  --headers-timeout MS, --request-timeout MS, --keep-alive-timeout MS, --max-connections N
  --idle-timeout MS (5000)  a connection that sends nothing is closed; --max-connections-per-ip N (256)
  --send-timeout MS (30000)  a connection whose reader takes nothing of an answer for this long is closed
  --shutdown-grace MS (10000)  on SIGTERM, requests in flight get this long to finish
  --max-streams N (512), --max-streams-per-ip N (64), --max-streams-per-person N (16)  open streaming reads of
      /rtdb; below the connection caps, so ordinary requests always have room; anonymous streams make way first
  --stream-max-lifetime MS (3600000)  a stream then ends with "reconnect"; --stream-buffer BYTES (8388608) unread
      bytes after which a slow reader's stream ends with "reconnect"
  --database-url postgres://USER:PASSWORD@HOST/DB  PostgreSQL instead of the SQLite file in --data (several
      instances may share it); --database-pool-size N connections in the instance's one pool (10; every store shares it, plus up to two connections that listen for other instances' changes)
  --database-invalidation check|notify  per-request revision check (default) or LISTEN/NOTIFY
  --identity-origin URL  the built-in provider's issuer origin, shared by instances behind one address
Environment: also _PUBLIC_ORIGIN, _MAX_TOKEN_LIFETIME, _HEADERS_TIMEOUT, _REQUEST_TIMEOUT, _KEEP_ALIVE_TIMEOUT, _MAX_CONNECTIONS, _MAX_CONNECTIONS_PER_IP, _IDLE_TIMEOUT, _SEND_TIMEOUT, _SHUTDOWN_GRACE, _MAX_STREAMS, _MAX_STREAMS_PER_IP, _MAX_STREAMS_PER_PERSON, _STREAM_MAX_LIFETIME, _STREAM_BUFFER, _DATABASE_URL, _DATABASE_POOL_SIZE.`;

async function main(): Promise<void> {
  const { command, config, token, apiToken, secret } = parseCommandLine(process.argv.slice(2));
  if (command === 'help') {
    console.log(HELP);
    return;
  }
  if (command === 'api-token') {
    await runApiTokenCommand(config, apiToken!, (line) => console.log(line), token.expiresIn);
    return;
  }
  if (command === 'rtdb-secret') {
    await runSecretCommand(config, secret!, (line) => console.log(line));
    return;
  }
  const { startService, IDENTITY_PREFIX } = await import('./app.ts');
  const { createDevIdentityProvider, DEMO_USERS } = await import('./identity/index.ts');
  if (command === 'token') {
    if (!token.sub) throw new ConfigError('token: --sub is required');
    // The issuer carries the port, so a token minted offline matches a server started on that port.
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const identity = await createDevIdentityProvider({
      issuer: `http://${host}:${config.port}${IDENTITY_PREFIX}`,
      audience: config.audience,
      dataDir: config.dataDir,
      logger: createLogger({ level: 'silent' }),
      users: DEMO_USERS,
    });
    try {
      console.log(await identity.mintAccessToken({ sub: token.sub, ...(token.email ? { email: token.email } : {}), ...(token.expiresIn ? { expiresIn: token.expiresIn } : {}) }));
    } finally {
      await identity.close();
    }
    return;
  }

  const service = await startService(config);
  // Every library is loaded now. No object built from a request has a prototype (server/rtdb/
  // tree.ts, the rules' scopes, search filters), and this makes a spot that was missed fail
  // loudly (a TypeError, a 500 for that one request) instead of poisoning every later one.
  Object.freeze(Object.prototype);
  const users = service.demoUsers.map((user) => user.email).join(', ');
  // A token for someone this service has: a demo user with demo data, its owner with --owner.
  const who = users ? { sub: 'alice', email: 'alice@example.com' } : config.owner ? { sub: OwnerSignIn.subject } : { sub: '<subject>', email: '<address>' };
  console.log(
    [
      '',
      'Breach-alert service is running',
      `  API base URL:  ${service.apiBaseUrl}`,
      `  Issuer:        ${service.issuer}`,
      `  Audience:      ${service.audience}`,
      `  Data folder:   ${service.dataDir}`,
      ...(users ? [`  Demo users:    ${users} (any password)`] : []),
      `  Get a token:   npm run -s server -- token --data ${JSON.stringify(service.dataDir)} --sub ${who.sub}${who.email ? ` --email ${who.email}` : ''} --port ${new URL(service.url).port}`,
      ...(config.dev ? [`                 or POST ${service.url}/__dev/token ${JSON.stringify(who)}`] : []),
      `  OpenAPI:       ${service.url}/openapi.yaml`,
      `  Details feed:  ${service.url}/rtdb (realtime database; catalog/breaches is public)`,
      ...describeCatalogLoad(service.catalogReport).map((line, i) => `  ${i === 0 ? 'Catalog:      ' : '              '} ${line}`),
      ...service.breachData.summary.map((line, i) => `  ${i === 0 ? 'Breach data:  ' : '              '} ${line}`),
      '  Breach data in real catalogs: Have I Been Pwned (haveibeenpwned.com), CC BY 4.0.',
      `  Hardening:     Object.prototype ${Object.isFrozen(Object.prototype) ? 'frozen' : 'NOT frozen'}`,
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await service.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? `error: ${error.message}` : error);
  process.exit(error instanceof ConfigError ? 2 : 1);
});
