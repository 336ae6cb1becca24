import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { BreachStore } from '../breaches/BreachStore.ts';
import type { CatalogLoadReport } from '../catalog/source.ts';
import { graphKeyOf, isLoopbackHost, type ServiceConfig } from '../config.ts';
import { GRAPH_PATH } from '../graph/routes.ts';
import type { BreachData } from '../hibp/index.ts';
import { routeThrough, type Mount } from '../http/mounts.ts';
import { HttpProblem, sendProblem } from '../http/problems.ts';
import type { DemoUser, DevIdentityProvider } from '../identity/index.ts';
import type { Logger } from '../log.ts';
import { API_PREFIX } from '../api/routes.ts';
import { OPENAPI_PATH } from '../openapi/document.ts';
import type { RtdbStore } from '../rtdb/RtdbStore.ts';
import type { StreamStats } from '../rtdb/streamSlots.ts';
import type { SearchService } from '../search/index.ts';
import { StoreUnavailableError } from '../storage/errors.ts';
import type { ServiceParts } from './ServiceParts.ts';

/** Seconds a client waits before retrying while the database is away. */
const DATABASE_RETRY_AFTER_SEC = 5;

export interface RunningService {
  /** Origin of the server, e.g. `http://127.0.0.1:6060`. */
  url: string;
  apiBaseUrl: string;
  issuer: string;
  audience: string;
  dataDir: string;
  demoUsers: readonly DemoUser[];
  store: BreachStore;
  /** The realtime database's storage (details feed, people's preferences, secrets). */
  rtdb: RtdbStore;
  /** The realtime database's open streaming reads: how many, and the bytes their readers left unread. */
  rtdbStreams: StreamStats;
  /** What loading the catalog at start changed and left out (also logged). */
  catalogReport: CatalogLoadReport;
  /** The search interface (`/client/v4/accounts/{accountId}/…`): its index and API tokens. */
  search: SearchService;
  /** Where exposures come from (`hibp`, `demo`, `none`), with the lookup queue when it is HIBP. */
  breachData: BreachData;
  accountId: string;
  /** Present when the development identity provider is mounted. */
  identity: DevIdentityProvider | undefined;
  server: Server;
  /** The router's table (server/http/mounts.ts): what the route walk and the Host-gate test walk. */
  mounts: readonly Mount[];
  close(): Promise<void>;
}

/** Serves `mounts` on the port the parts listen on (503 until now), and says so in the log. */
export async function serve(mounts: readonly Mount[], parts: ServiceParts): Promise<RunningService> {
  const { config, logger } = parts;
  const listening = await parts.listening();
  const { breaches: store, rtdb } = await parts.storage();
  const signIn = await parts.signIn();
  warnIfReachable(config, logger);
  listening.connections.serve(requestHandler(mounts, listening.hostNames, logger));
  logger.info(
    { url: listening.url, issuer: signIn.issuer, dev: config.dev, breaches: await store.catalogSize(), database: config.databaseUrl ? 'postgresql' : 'sqlite' },
    'breach-alert service listening',
  );
  return {
    url: listening.url,
    apiBaseUrl: listening.url + API_PREFIX,
    issuer: signIn.issuer,
    audience: config.audience,
    dataDir: config.dataDir,
    demoUsers: signIn.identity ? signIn.demoUsers : [],
    store,
    rtdb,
    rtdbStreams: await parts.rtdbStreams(),
    catalogReport: await parts.catalogReport(),
    search: await parts.search(),
    breachData: await parts.breachData(),
    accountId: config.accountId,
    identity: signIn.identity,
    server: listening.server,
    mounts,
    async close() {
      // Stop accepting, let requests in flight finish (bounded), then close the rest, last opened first.
      await listening.drain(config.shutdownGraceMs);
      await parts.close();
    },
  };
}

function warnIfReachable(config: ServiceConfig, logger: Logger): void {
  if (isLoopbackHost(config.host)) return;
  const graphKey = graphKeyOf(config);
  logger.warn(
    { host: config.host, exposed: [API_PREFIX, ...(graphKey ? [GRAPH_PATH] : []), OPENAPI_PATH] },
    `listening on ${config.host}: other machines can reach the breach API (tokens from ${config.issuer}), ${graphKey ? 'the graph endpoint /v2/node (with its key), ' : ''}and the OpenAPI document`,
  );
}

/** Every request: through the router's table, its errors as problem documents (503 while the database is away). */
function requestHandler(mounts: readonly Mount[], hostNames: ReadonlySet<string>, logger: Logger) {
  return (req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('x-content-type-options', 'nosniff');
    if (logger.isLevelEnabled('debug')) {
      const started = performance.now();
      res.on('finish', () => {
        logger.debug({ method: req.method, path: (req.url ?? '').split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - started) }, 'request');
      });
    }
    void routeThrough(mounts, hostNames, req, res).catch((error: unknown) => {
      const unavailable = error instanceof StoreUnavailableError;
      if (unavailable) logger.warn({ database: error.database, path: (req.url ?? '').split('?')[0] }, 'database unavailable');
      else if (!(error instanceof HttpProblem)) logger.error({ err: error, path: (req.url ?? '').split('?')[0] }, 'request failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendProblem(
        res,
        error instanceof HttpProblem
          ? error
          : unavailable
            ? new HttpProblem(503, 'the database is unavailable; try again shortly', { headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SEC) } })
            : new HttpProblem(500, 'the service failed to answer; try again later'),
      );
    });
  };
}
