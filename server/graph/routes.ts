import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GraphOutOfStepError, planBreachGraphUpdate, replaceGraph, updateBreachGraph } from '../../engine/graph/breachGraph.ts';
import { GraphQueryError, NodeQueryEngine } from '../../engine/graph/NodeQueryEngine.ts';
import { TripleStore } from '../../engine/graph/TripleStore.ts';
import { NodeRequest } from '../../shared/graph/index.ts';
import { allow } from '../api/routes.ts';
import { readJsonBody } from '../http/body.ts';
import { HttpProblem } from '../http/problems.ts';
import { sendJson } from '../http/respond.ts';
import type { BreachStore, CatalogLog } from '../breaches/BreachStore.ts';

export const GRAPH_PATH = '/v2/node';
const MAX_BODY_BYTES = 256 * 1024;
/** More changed breaches than this are read whole (as the search index does). */
const MAX_CHANGES_APPLIED = 256;

export interface GraphRoutesOptions {
  store: BreachStore;
  /**
   * The catalog's own log of single writes, read in-process (SQLite's store keeps it; see
   * `ServiceStorage.catalogLog`): with it, a change to one breach updates that breach's part of
   * the graph; without it (PostgreSQL, where another instance may have written), or when the log
   * does not reach back far enough, the graph is built from the whole catalog.
   */
  catalogLog?: CatalogLog | undefined;
  /** The API key callers must send; without one every request is refused. */
  apiKey: string | undefined;
  pageSize?: number;
}

/**
 * `GET` and `POST /v2/node`: the graph node query interface over the service's catalog. The graph
 * is an in-memory triple store rebuilt from the catalog when the catalog's own revision moves: a
 * person's resolutions and exposures move the store's revision but not the catalog's, so they
 * cost the graph nothing (no read of the catalog) and leave the page tokens handed out for it valid.
 */
export function createGraphRoutes(options: GraphRoutesOptions) {
  const triples = TripleStore.open(':memory:');
  const engine = new NodeQueryEngine(triples, options.pageSize !== undefined ? { pageSize: options.pageSize } : {});
  const expected = options.apiKey === undefined ? undefined : digest(options.apiKey);
  let builtAt: number | undefined;

  /** One build at a time: requests arriving during a build wait for it rather than build again. */
  let building: Promise<void> | undefined;

  async function currentEngine(): Promise<NodeQueryEngine> {
    while (building) await building;
    const revision = await options.store.catalogRevision();
    if (revision !== builtAt) {
      building = (async () => {
        if (!(builtAt !== undefined && (await updateChanged(builtAt)))) replaceGraph(triples, await options.store.listBreaches());
        builtAt = revision;
      })().finally(() => (building = undefined));
      await building;
    }
    return engine;
  }

  /** Applies the breaches changed since `since` alone; false when they are not known. */
  async function updateChanged(since: number): Promise<boolean> {
    const log = options.catalogLog;
    const ids = await log?.catalogChangesSince(since);
    if (!log || ids === undefined) return false;
    const unique = new Set(ids);
    // A bulk load is cheaper built whole than breach by breach.
    if (unique.size > MAX_CHANGES_APPLIED) return false;
    const read = async (id: string) => [id, await log.getBreach(id)] as const;
    const changes = (await Promise.all([...unique].map(read))).map(([id, breach]) => ({ id, breach }));
    // The records that name the nodes the changes touch, read before the graph is written (one transaction).
    const plan = planBreachGraphUpdate(triples, changes);
    // The builds are one at a time (`building`), so the graph the plan was made of is still the one written.
    const naming = new Map(await Promise.all(plan.reads.map(read)));
    try {
      updateBreachGraph(triples, changes, (id) => naming.get(id), plan);
      return true;
    } catch (error) {
      // One transaction: a failed update wrote nothing, and the whole build sets things right.
      if (error instanceof GraphOutOfStepError) return false;
      throw error;
    }
  }

  async function handleGraph(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    if (url.pathname !== GRAPH_PATH) return false;
    allow(req, ['GET', 'POST']);
    authorize(req, url, expected);
    const request = req.method === 'GET' ? fromQuery(url.searchParams) : await fromBody(req);
    try {
      sendJson(res, 200, (await currentEngine()).query(request), { 'cache-control': 'no-store' });
    } catch (error) {
      if (error instanceof GraphQueryError) {
        throw new HttpProblem(400, error.message, { errors: [{ pointer: `/${error.field}`, message: error.message }] });
      }
      throw error;
    }
    return true;
  }

  return Object.assign(handleGraph, {
    close: () => triples.close(),
    /** The key check alone: the router's access decision for this mount. */
    authorize: async (req: IncomingMessage, url: URL): Promise<'key'> => {
      authorize(req, url, expected);
      return 'key';
    },
  });
}

/**
 * The key rides in `X-API-Key` (POST, and accepted on GET) or the `key` query parameter (GET,
 * and accepted on POST). Both sides are hashed first so the comparison takes the same time
 * whatever the length or content of a guess.
 */
function authorize(req: IncomingMessage, url: URL, expected: Buffer | undefined): void {
  const challenge = { 'www-authenticate': 'ApiKey realm="graph", header="X-API-Key", query="key"' };
  if (!expected) throw new HttpProblem(401, 'the graph endpoint is disabled: the service was started without --graph-key or GRAPH_API_KEY', { headers: challenge });
  const header = req.headers['x-api-key'];
  const sent = (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('key') ?? undefined;
  if (sent === undefined || sent === '') {
    throw new HttpProblem(401, 'an API key is required: send it in the X-API-Key header (POST) or the key query parameter (GET)', { headers: challenge });
  }
  if (!timingSafeEqual(digest(sent), expected)) throw new HttpProblem(401, 'the API key is not valid', { headers: challenge });
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function fromQuery(params: URLSearchParams): NodeRequest {
  const nextToken = params.get('nextToken');
  return validate({ nodes: params.getAll('nodes'), property: params.get('property') ?? '', ...(nextToken !== null ? { nextToken } : {}) }, 'query');
}

async function fromBody(req: IncomingMessage): Promise<NodeRequest> {
  const body = await readJsonBody(req, MAX_BODY_BYTES);
  return validate(body, 'body');
}

function validate(input: unknown, where: 'query' | 'body'): NodeRequest {
  const parsed = NodeRequest.safeParse(input);
  if (parsed.success) return parsed.data;
  const errors = parsed.error.issues.map((issue) => ({
    pointer: issue.path.length > 0 ? '/' + issue.path.map(String).join('/') : '',
    message: issue.message,
    ...(where === 'query' && issue.path.length > 0 ? { parameter: String(issue.path[0]) } : {}),
  }));
  throw new HttpProblem(400, `invalid ${where}: ` + errors.map((e) => `${e.pointer.slice(1) || where} ${e.message}`).join('; '), { errors });
}
