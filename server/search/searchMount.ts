import type { IncomingMessage, ServerResponse } from 'node:http';
import { SearchCodes } from '../../shared/search/index.ts';
import type { Mount } from '../http/mounts.ts';
import type { Logger } from '../log.ts';
import type { ApiTokenStore } from './ApiTokenStore.ts';
import { authenticateApiToken } from './authenticate.ts';
import { SearchError, sendSearchError, toSearchError } from './envelope.ts';
import { createSearchRoutes, SEARCH_NAMESPACE, SEARCH_PREFIX, type Endpoint, type Method, type Params, type Route } from './routes.ts';
import type { SearchIndex } from './SearchIndex.ts';

export interface SearchTableMountDeps {
  index: SearchIndex;
  tokens: ApiTokenStore;
  accountId: string;
  logger: Logger;
  now?: () => number;
}

/** What the search mount's access decision settled: the endpoint the request reaches, and its path parameters. */
export interface SearchGrant {
  endpoint: Endpoint;
  params: Params;
}

/**
 * The search interface as one of the service's mounts: its access decision finds the request's
 * route in the search table (routes.ts) and checks the caller's API token for that route's
 * scope, the account and the namespace, before the handler, the body or any data is read; every
 * refusal and failure is answered in the search envelope, as Cloudflare's SDK reads it.
 */
export function createSearchTableMount({ index, tokens, accountId, logger, now = Date.now }: SearchTableMountDeps): Mount<SearchGrant> {
  const { routes, namespaces } = createSearchRoutes({ index, now });

  /** A failure as the caller sees it; one the interface does not know is logged and answered 500. */
  const failure = (error: unknown, url: URL): SearchError => {
    const known = toSearchError(error);
    if (!known) logger.error({ err: error, path: url.pathname }, 'search request failed');
    return known ?? new SearchError(500, SearchCodes.internal, 'the search service failed to answer; try again later');
  };

  async function authorize(req: IncomingMessage, url: URL): Promise<SearchGrant> {
    // Node's parser already refuses this pair; kept for parsers configured to be lenient.
    if (req.headers['transfer-encoding'] !== undefined && req.headers['content-length'] !== undefined) {
      throw new SearchError(400, SearchCodes.invalidHeaders, 'a request may not carry both Transfer-Encoding and Content-Length; send only one of them', { headers: { connection: 'close' } });
    }
    const path = url.pathname.slice(SEARCH_PREFIX.length);
    let match: RegExpExecArray | null = null;
    const found = routes.find((r) => (match = r.pattern.exec(path)) !== null);
    if (!found || !match) throw new SearchError(404, SearchCodes.notFound, `no such endpoint: ${req.method} ${url.pathname}`);
    const endpoint = endpointFor(found, req.method);
    const params: Params = { account: '', namespace: SEARCH_NAMESPACE, instance: '', item: '', job: '' };
    found.names.forEach((name, i) => (params[name] = decode(match![i + 1]!)));
    const token = await authenticateApiToken(req, tokens, params.account, endpoint.scope, now());
    // The token holds for the path's account; this mount serves one account only, so a token
    // made for another (`api-token create --account-id other`, same store) reads nothing here.
    if (params.account !== accountId) {
      throw new SearchError(403, SearchCodes.wrongAccount, `the API token ${token.id} is for account "${params.account}", which this service does not serve`);
    }
    if (!namespaces.has(params.namespace)) {
      throw new SearchError(404, SearchCodes.notFound, `no namespace "${params.namespace}" in account "${accountId}"; namespaces: ${[...namespaces.keys()].join(', ')}`);
    }
    if (params.instance !== '' && !namespaces.get(params.namespace)!.has(params.instance)) {
      throw new SearchError(
        404,
        SearchCodes.notFound,
        `no instance "${params.instance}" in namespace "${params.namespace}" of account "${accountId}"; instances: ${[...namespaces.get(params.namespace)!.keys()].join(', ')}`,
      );
    }
    return { endpoint, params };
  }

  return {
    name: 'search',
    prefix: SEARCH_PREFIX,
    boundary: 'a program, by an API token for this account with the scope of the endpoint (and its allowed addresses)',
    async access(req, url) {
      try {
        return await authorize(req, url);
      } catch (error) {
        throw failure(error, url);
      }
    },
    async handle(req, res, url, { endpoint, params }) {
      try {
        await endpoint.handle(req, res, url, params);
      } catch (error) {
        const answer = failure(error, url);
        if (res.headersSent) res.destroy();
        else sendSearchError(res, answer);
      }
      return true;
    },
    refuse(res: ServerResponse, error: unknown) {
      // Access throws only what `failure` made of an error: a SearchError.
      sendSearchError(res, error instanceof SearchError ? error : new SearchError(500, SearchCodes.internal, 'the search service failed to answer; try again later'));
      return true;
    },
  };
}

/** The route's endpoint for `method`, or the 405 that says what the path allows (and, for a management write, why not). */
function endpointFor(route: Route, method: string | undefined): Endpoint {
  const endpoint = route.handlers[method as Method];
  if (endpoint) return endpoint;
  const allow = Object.keys(route.handlers).join(', ');
  const write = route.writes[method as Method];
  if (write) {
    throw new SearchError(
      405,
      SearchCodes.readOnly,
      `this reference instance is read-only: it indexes the breach catalog itself, so it cannot ${write} (${method} is not allowed here; use ${allow})`,
      {
        headers: { allow },
      },
    );
  }
  throw new SearchError(405, SearchCodes.methodNotAllowed, `${method} is not allowed here; use ${allow}`, { headers: { allow } });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new SearchError(400, SearchCodes.invalidRequest, 'a path segment is not valid percent-encoding');
  }
}
