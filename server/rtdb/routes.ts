import type { IncomingMessage, ServerResponse } from 'node:http';
import { Emitter } from '../../shared/base/Emitter.ts';
import { DisposableStore, type Disposable } from '../../shared/base/lifecycle.ts';
import type { Logger } from '../log.ts';
import { headersAfterRefusingUnread, readBodyText } from '../http/body.ts';
import { JsonLimitError, parseJsonYielding, type JsonLimits } from '../http/jsonParse.ts';
import { HttpProblem } from '../http/problems.ts';
import { etagOf, ifNoneMatchHits } from '../http/respond.ts';
import { authenticateRtdb, RtdbAuthError, VerifiedIdTokens, type RtdbAuthOptions, type RtdbCaller } from './authenticate.ts';
import { DbPathError, MAX_DEPTH, parseDbPath, type DbPath } from './paths.ts';
import { PERSON_NODE_MAX_BYTES, personNodeOverQuota } from './personQuota.ts';
import { createPushIdGenerator } from './pushIds.ts';
import { indexNeeded, namesQuery, parseQuery, QUERY_PARAMETERS, QueryError, readWithin, ReadTimeoutError, runQuery, type DbQuery } from './query.ts';
import { afterWrites, decideWithReads } from './reads.ts';
import { compileRules, DEFAULT_RULES, RulesError, type CompiledRules } from './rules.ts';
import type { DbWrite, RtdbStore } from './RtdbStore.ts';
import { hasServerValues, resolveServerValues, ServerValueError, withStandIns } from './serverValues.ts';
import { streamLocation } from './stream.ts';
import { WriteTurns } from './writeTurns.ts';
import { StreamSlots, type StreamSlotLimits, type StreamStats } from './streamSlots.ts';
import { addressKey } from '../http/connections.ts';
import { STREAM_LIMIT_DEFAULTS } from '../config.ts';
import { flatten, record, type DbValue } from './tree.ts';

export const RTDB_PREFIX = '/rtdb';
/** Writes up to this size; the whole HIBP catalog is about 1 MB. */
export const MAX_WRITE_BYTES = 16 * 1024 * 1024;
/**
 * Values (objects, arrays and leaves) one write may hold. The real database has no fixed count;
 * it estimates how long a write will take and aborts those past a target time (`writeSizeLimit`:
 * tiny is 1 s, https://firebase.google.com/docs/database/rest/save-data). Here the estimate is
 * the count, chosen so the largest write keeps other requests waiting well under 100 ms
 * (docs/decisions/0143-values-per-realtime-database-write-2.md, `npm run bench:hardening`).
 */
export const MAX_WRITE_VALUES = 2_000;
/**
 * The real database's data-tree limits (https://firebase.google.com/docs/database/usage/limits):
 * depth 32 and strings of 10 MB while parsing. Keys are checked after (a PATCH's keys are paths,
 * and rules have their own), within the value count.
 */
const WRITE_LIMITS: JsonLimits = { maxDepth: MAX_DEPTH, maxValues: MAX_WRITE_VALUES, maxStringBytes: 10 * 1024 * 1024 };
const RULES_SETTING = 'rules';
const SUPPORTED_QUERY = new Set(['auth', 'access_token', 'shallow', 'print', ...QUERY_PARAMETERS, 'format', 'timeout', 'writeSizeLimit']);
/** Firebase's `writeSizeLimit` values (https://firebase.google.com/docs/database/rest/app-management): accepted, not enforced here (one size cap for all). */
const WRITE_SIZE_LIMITS = new Set(['tiny', 'small', 'medium', 'large', 'unlimited']);
/** Firebase's `timeout` takes `<n>ms`, `<n>s` or `<n>min`, at most 15 minutes. */
const TIMEOUT = /^([1-9]\d{0,8})(ms|s|min)$/;
const MAX_TIMEOUT_MS = 15 * 60_000;
/** Seconds a stream refused at a cap is asked to wait (`Retry-After`). */
const STREAM_REFUSED_RETRY_AFTER_SEC = 30;
const LEGACY_WARNING = '299 - "Database secrets are a legacy credential and are discouraged; use a service account or an ID token"';

/** An answer in the database's own error shape, `{"error": "..."}`. */
class RtdbError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  constructor(status: number, message: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
    super(message);
    this.status = status;
    this.headers = options.headers ?? {};
    this.body = options.body ?? { error: message };
  }
}

export interface RtdbRoutesDeps extends RtdbAuthOptions {
  store: RtdbStore;
  logger: Logger;
  now?: () => number;
  /** How often an idle stream sends `keep-alive` (30 s by default). */
  keepAliveMs?: number;
  /** Caps, lifetime and buffer of streaming reads (the service's config; {@link STREAM_LIMIT_DEFAULTS} by default). */
  streams?: StreamSlotLimits & { streamMaxLifetimeMs: number; streamBufferBytes: number };
  /** The open streams' slots, when the caller reads their counts (the running service's `rtdbStreams`); made from `streams` otherwise. */
  slots?: StreamSlots;
}

/** What the access decision settled, handed to the handler; only {@link createRtdbRoutes}'s `access` makes one. */
export interface RtdbGrant {
  readonly [DECIDED]: true;
  readonly caller: RtdbCaller;
  /** The method the request acts as (`X-HTTP-Method-Override` applied to a POST). */
  readonly method: string;
  /** `undefined` for the rules document (`/.settings/rules.json`). */
  readonly path: DbPath | undefined;
  readonly stream: boolean;
  readonly shallow: boolean;
  readonly print: 'pretty' | 'silent' | undefined;
  readonly wantsEtag: boolean;
  /** A query of the location's children (reads only), already checked against the rules' `.indexOn`. */
  readonly query: DbQuery | undefined;
  /** `timeout=`: how long a read may take before it is answered 400, in milliseconds. */
  readonly timeoutMs: number | undefined;
  /**
   * Authenticates the request's credential again: false once it no longer holds (a revoked
   * sign-in or database secret, a deleted account). A stream asks it while it runs.
   */
  readonly credentialValid: () => Promise<boolean>;
}
const DECIDED = Symbol('the realtime database access decision ran');

export interface RtdbMount extends Disposable {
  /**
   * The access decision, run by the router before {@link RtdbMount.handle}: parses the location,
   * authenticates the caller and asks the rules. A read the rules refuse, or a write no rule
   * could grant whatever its body, is refused here, before any data is read and before the
   * body is. Writes that might be granted are checked again, with their data, in the handler.
   */
  access(req: IncomingMessage, url: URL): Promise<RtdbGrant>;
  handle(req: IncomingMessage, res: ServerResponse, url: URL, grant: RtdbGrant): Promise<void>;
  /** Answers an error of this mount in the database's own shape; false for anything else. */
  refuse(res: ServerResponse, error: unknown): boolean;
  /** Stops following the store's changes (open streams end with their connections). */
  dispose(): void;
  /** The open streaming reads: how many, and what they hold unread. */
  readonly streams: StreamStats;
}

const WRITE_METHODS = new Set(['PUT', 'PATCH', 'POST', 'DELETE']);
/** The methods a POST may stand in for (the real database's `X-HTTP-Method-Override`). */
const OVERRIDABLE = new Set(['PUT', 'PATCH', 'DELETE']);

/**
 * The realtime database's REST interface at `{service}/rtdb`: `GET`/`PUT`/`PATCH`/`POST`/
 * `DELETE` `<path>.json`, `?shallow=true`, `X-Firebase-ETag` and `if-match`, the rules at
 * `.settings/rules.json` (service accounts and secrets only), and streaming reads
 * (`Accept: text/event-stream`). Each write — its rules check, its condition and the write
 * itself — is one transaction of the store that no other writer, of any instance, interleaves
 * with. Rules replaced through another instance are re-read when its notice arrives.
 */
export async function createRtdbRoutes(deps: RtdbRoutesDeps): Promise<RtdbMount> {
  const { store, logger } = deps;
  const now = deps.now ?? Date.now;
  const nextPushId = createPushIdGenerator(now);
  const streamLimits = deps.streams ?? STREAM_LIMIT_DEFAULTS;
  // Each request's credential, and each stream's again before a change: a signature checked once stays checked until `exp`.
  const authOptions: RtdbAuthOptions = { ...deps, verifiedIdTokens: new VerifiedIdTokens(undefined, now) };
  const streamSlots = deps.slots ?? new StreamSlots(streamLimits);
  const writeTurns = new WriteTurns();
  let rules: CompiledRules = compileRules(await readStoredRules(store));
  let rulesRead = 0;
  // What the mount follows and tells, dropped together when it is disposed.
  const subscriptions = new DisposableStore();
  // Open streams re-check their read when the rules change; one that fails is logged, the rest still hear it.
  const rulesReplaced = subscriptions.add(new Emitter<void>({ onListenerError: (error) => logger.warn({ err: error }, 'a streaming read failed to re-check its rules') }));
  const replaceRules = (compiled: CompiledRules) => {
    rules = compiled;
    rulesReplaced.fire();
  };
  const onRulesReplaced = rulesReplaced.event;
  const reloadRules = async () => {
    const attempt = ++rulesRead;
    try {
      const source = await readStoredRules(store);
      if (attempt === rulesRead && JSON.stringify(source) !== JSON.stringify(rules.source)) replaceRules(compileRules(source));
    } catch (error) {
      logger.warn({ err: error }, 'could not re-read the realtime database rules another instance replaced; keeping the previous ones');
    }
  };
  subscriptions.add(
    store.watch((change) => {
      if (change.writes) return;
      if (change.paths === '*' || change.paths.some((path) => path[0] === '.settings' && (path[1] === undefined || path[1] === RULES_SETTING))) void reloadRules();
    }),
  );

  return {
    access,
    async handle(req, res, url, grant) {
      // The type says a grant is needed; this says it came from `access`, not from a literal.
      if (grant[DECIDED] !== true) throw new Error('the realtime database handler was reached without its access decision');
      await answer(req, res, grant);
    },
    refuse(res, error) {
      if (error instanceof RtdbAuthError) {
        send(res, 401, { error: error.message });
        return true;
      }
      if (!(error instanceof RtdbError)) return false;
      send(res, error.status, error.body, error.headers);
      return true;
    },
    dispose: () => subscriptions.dispose(),
    streams: streamSlots,
  };

  async function access(req: IncomingMessage, url: URL): Promise<RtdbGrant> {
    const rest = url.pathname.slice(RTDB_PREFIX.length);
    if (!rest.endsWith('.json')) throw new RtdbError(404, `database paths end in .json, e.g. ${RTDB_PREFIX}/catalog/breaches.json`);
    for (const name of url.searchParams.keys())
      if (!SUPPORTED_QUERY.has(name)) throw new RtdbError(400, `query parameter "${name}" is not supported by this database (supported: ${[...SUPPORTED_QUERY].join(', ')})`);
    const shallow = url.searchParams.get('shallow');
    if (shallow !== null && shallow !== 'true' && shallow !== 'false') throw new RtdbError(400, 'shallow must be true or false');
    const print = url.searchParams.get('print');
    if (print !== null && print !== 'pretty' && print !== 'silent') throw new RtdbError(400, 'print must be pretty or silent');
    const format = url.searchParams.get('format');
    if (format !== null && format !== 'export') throw new RtdbError(400, 'format must be export');
    const writeSizeLimit = url.searchParams.get('writeSizeLimit');
    if (writeSizeLimit !== null && !WRITE_SIZE_LIMITS.has(writeSizeLimit)) throw new RtdbError(400, `writeSizeLimit must be one of ${[...WRITE_SIZE_LIMITS].join(', ')}`);
    const timeoutMs = parseTimeout(url.searchParams.get('timeout'));
    let query: DbQuery | undefined;
    try {
      query = parseQuery(url.searchParams);
    } catch (error) {
      if (error instanceof QueryError) throw new RtdbError(400, error.message);
      throw error;
    }
    if (query && shallow !== null) throw new RtdbError(400, 'shallow cannot be mixed with any other query parameters');
    const method = effectiveMethod(req);
    if (namesQuery(url.searchParams) && method !== 'GET' && method !== 'HEAD') throw new RtdbError(400, `query parameters (${QUERY_PARAMETERS.join(', ')}) apply to reads only`);

    const caller = await authenticateRtdb(req, url.searchParams, authOptions);
    const rawPath = rest.slice(0, -'.json'.length);
    const wantsEtag = (req.headers['x-firebase-etag'] ?? '').toString().toLowerCase() === 'true';
    const stream = method === 'GET' && /\btext\/event-stream\b/.test(req.headers.accept ?? '');
    const credentialValid = async () => {
      try {
        await authenticateRtdb(req, url.searchParams, authOptions);
        return true;
      } catch (error) {
        if (error instanceof RtdbAuthError) return false;
        throw error;
      }
    };
    const grant = (path: DbPath | undefined): RtdbGrant => ({
      [DECIDED]: true,
      caller,
      method,
      path,
      stream,
      shallow: shallow === 'true',
      print: print ?? undefined,
      wantsEtag,
      query,
      timeoutMs,
      credentialValid,
    });

    // The rules are the database's configuration: only full-access credentials see or change them.
    if (rawPath === '/.settings/rules') {
      if (caller.kind !== 'admin') throw new RtdbError(401, 'Permission denied');
      if (query) throw new RtdbError(400, 'the rules document takes no query parameters');
      return grant(undefined);
    }
    let path: DbPath;
    try {
      path = parseDbPath(rawPath.split('/').map(decodeSegment).join('/'));
    } catch (error) {
      if (error instanceof DbPathError) throw new RtdbError(400, `Invalid path: ${error.message}`);
      throw error;
    }
    if (method === 'GET' || method === 'HEAD') {
      // Rules are not filters (as in Firebase): a query needs read access to its whole location,
      // so it shows nothing a plain read of the location would not.
      if (!(await canRead(caller, path))) throw new RtdbError(401, 'Permission denied');
      const index = query && indexNeeded(query.orderBy);
      if (index !== undefined && !rules.indexesAt(path).has(index)) throw new RtdbError(400, `Index not defined, add ".indexOn": "${index}", for path "/${path.join('/')}", to the rules`);
    } else if (WRITE_METHODS.has(method)) {
      if (caller.kind !== 'admin' && (await deniedBeforeBody(caller, method, path))) throw new RtdbError(401, 'Permission denied');
    } else {
      throw new RtdbError(405, `method ${method} is not supported; use GET, PUT, PATCH, POST or DELETE`, { headers: { allow: 'GET, HEAD, PUT, PATCH, POST, DELETE' } });
    }
    return grant(path);
  }

  async function answer(req: IncomingMessage, res: ServerResponse, grant: RtdbGrant): Promise<void> {
    const { caller, method, print, wantsEtag } = grant;
    if (caller.kind === 'admin' && caller.via === 'secret') {
      res.setHeader('warning', LEGACY_WARNING);
      logger.warn({ secretId: caller.secretId, method }, 'realtime database used with a legacy secret (discouraged; rotate it to a service account)');
    }
    if (grant.path === undefined) return answerRules(req, res, method, caller);
    const path = grant.path;
    const format = (value: unknown) => (print === 'pretty' ? JSON.stringify(value, null, 2) : JSON.stringify(value));

    if (grant.stream) {
      if (grant.shallow || wantsEtag) throw new RtdbError(400, 'streaming reads take neither shallow nor X-Firebase-ETag');
      if (grant.query) throw new RtdbError(400, 'streaming reads of a query are not supported by this database; stream the location and filter it');
      const exp = caller.kind === 'user' ? (caller.auth.token as { exp?: unknown }).exp : undefined;
      const slot = streamSlots.take(addressKey(req.socket.remoteAddress ?? ''), streamOwner(caller));
      if ('refused' in slot) {
        const limit = slot.refused === 'address' ? `${streamLimits.maxStreamsPerIp} from one address` : `${streamLimits.maxStreams} in all`;
        throw new RtdbError(429, `Too many streaming reads are open (at most ${limit}); close one or try again later`, {
          headers: { 'retry-after': String(STREAM_REFUSED_RETRY_AFTER_SEC) },
        });
      }
      return streamLocation({
        req,
        res,
        path,
        store,
        canRead: () => canRead(caller, path),
        onRulesReplaced,
        expiresAt: typeof exp === 'number' ? exp * 1000 : undefined,
        // Anonymous readers have no credential to lose (the rules decide, and are asked again).
        ...(caller.kind === 'anonymous' ? {} : { credentialValid: grant.credentialValid }),
        now,
        ...(deps.keepAliveMs ? { keepAliveMs: deps.keepAliveMs } : {}),
        slot,
        slots: streamSlots,
        maxLifetimeMs: streamLimits.streamMaxLifetimeMs,
        bufferBytes: streamLimits.streamBufferBytes,
        writeTurns,
        logger,
      });
    }

    if (method === 'GET' || method === 'HEAD') {
      if (grant.shallow && wantsEtag) throw new RtdbError(400, 'shallow and X-Firebase-ETag cannot be combined');
      // A store that can list a location's children answers shallow reads without building its value.
      if (grant.shallow && store.shallow) return send(res, 200, await store.shallow(path), { 'cache-control': 'no-cache' }, format, method === 'HEAD');
      const read = async () => {
        const snapshot = await store.snapshot(path);
        if (!grant.query) return snapshot;
        // The ETag of a query's answer is that of what it answers (its JSON), like a location's.
        const answered = runQuery(snapshot.value, grant.query);
        const text = JSON.stringify(answered);
        return { value: answered, json: text, etag: etagOf(text) };
      };
      let answer: { value: DbValue; json: string; etag: string };
      try {
        answer = await readWithin(grant.timeoutMs, read);
      } catch (error) {
        if (error instanceof ReadTimeoutError) throw new RtdbError(400, error.message);
        throw error;
      }
      const { value, json, etag } = answer;
      const headers: Record<string, string> = { 'cache-control': 'no-cache' };
      if (wantsEtag) headers.etag = etag;
      // An addition to the real interface: lets a client that kept the ETag skip the body.
      if (wantsEtag && ifNoneMatchHits(req, etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      if (print === 'silent') {
        res.writeHead(204, headers);
        res.end();
        return;
      }
      if (grant.shallow) return send(res, 200, shallowOf(value), headers, format, method === 'HEAD');
      return send(res, 200, value, headers, print === 'pretty' ? format : () => json, method === 'HEAD');
    }

    if (grant.shallow) throw new RtdbError(400, 'shallow applies to reads only');
    const body = method === 'DELETE' ? null : await readBody(req);
    const pushKey = method === 'POST' ? nextPushId() : undefined;
    const requested = writesOf(method, path, body, pushKey);
    const withServerValues = hasServerValues(requested);
    const ifMatch = req.headers['if-match'];

    const outcome = await store.transaction(async (tx) => {
      // Server values are resolved here, inside the transaction, so an increment reads what the
      // last committed write left (no other writer of any instance comes in between).
      const writes = withServerValues ? await resolveServerValues(requested, now(), (location) => tx.get(location)) : requested;
      // The rules first: a condition compared before them would tell anyone the data's ETag, or,
      // with the current value in the 412, the data itself.
      if (caller.kind !== 'admin') {
        const checkedRules = rules;
        const at = now();
        const allowed = await decideWithReads(
          (location) => tx.get(location),
          (read) =>
            checkedRules.canWrite(
              writes.map((w) => w.path),
              { auth: caller.kind === 'user' ? caller.auth : null, now: at, read, readNew: (location) => afterWrites(read(location), location, writes) },
            ),
        );
        if (!allowed) return { status: 401 as const };
      }
      if (ifMatch !== undefined) {
        const { value: current, etag: currentEtag } = await tx.snapshot(path);
        if (ifMatch !== currentEtag) {
          // Only a caller who may read the location learns what it holds (the real database's 412 carries it).
          const readable = caller.kind === 'admin' || (await canRead(caller, path, (location) => tx.get(location)));
          return readable ? { status: 412 as const, current, currentEtag } : { status: 412 as const };
        }
      }
      await tx.write(writes);
      // Checked after the write, inside its transaction: thrown, the write is rolled back.
      if (caller.kind !== 'admin') {
        const over = await personNodeOverQuota(tx, writes, PERSON_NODE_MAX_BYTES);
        if (over) throw new RtdbError(413, `Payload too large: /${over.node.join('/')} would hold ${over.bytes} bytes; a person's node holds at most ${PERSON_NODE_MAX_BYTES} bytes`);
      }
      return { status: 200 as const, writes, etag: wantsEtag || ifMatch !== undefined ? (await tx.snapshot(path)).etag : undefined };
    });
    if (outcome.status === 412) {
      if (outcome.currentEtag === undefined) throw new RtdbError(412, 'ETag mismatch');
      throw new RtdbError(412, 'ETag mismatch', { headers: { etag: outcome.currentEtag }, body: outcome.current });
    }
    if (outcome.status === 401) throw new RtdbError(401, 'Permission denied');
    const headers: Record<string, string> = outcome.etag ? { etag: outcome.etag } : {};
    if (print === 'silent') {
      res.writeHead(204, headers);
      res.end();
      return;
    }
    // Firebase answers a PUT or PATCH with the data written, server values resolved.
    const written = withServerValues ? writtenBody(method, path, outcome.writes, body) : body;
    send(res, 200, method === 'POST' ? { name: pushKey } : method === 'DELETE' ? null : written, headers, format);
  }

  async function canRead(caller: RtdbCaller, path: DbPath, fetch: (location: DbPath) => Promise<DbValue> = (location) => store.get(location)): Promise<boolean> {
    if (caller.kind === 'admin') return true;
    const checkedRules = rules;
    const at = now();
    return decideWithReads(fetch, (read) => checkedRules.canRead(path, { auth: caller.kind === 'user' ? caller.auth : null, now: at, read }));
  }

  /** True when no rule could grant this write whatever its body says: refused before reading it. */
  async function deniedBeforeBody(caller: RtdbCaller, method: string, path: DbPath): Promise<boolean> {
    const checkedRules = rules;
    const at = now();
    return decideWithReads(
      (location) => store.get(location),
      (read) => checkedRules.deniesWriteBeforeBody(path, method === 'PATCH' || method === 'POST', { auth: caller.kind === 'user' ? caller.auth : null, now: at, read }),
    );
  }

  async function answerRules(req: IncomingMessage, res: ServerResponse, method: string, caller: RtdbCaller): Promise<void> {
    if (method === 'GET') return send(res, 200, rules.source);
    if (method !== 'PUT') throw new RtdbError(405, 'rules are read with GET and replaced with PUT', { headers: { allow: 'GET, PUT' } });
    const body = await readBody(req);
    let compiled: CompiledRules;
    try {
      compiled = compileRules(body);
    } catch (error) {
      if (error instanceof RulesError) throw new RtdbError(400, `Invalid rules: ${error.message}`);
      throw error;
    }
    await store.putSetting(RULES_SETTING, JSON.stringify(body));
    rulesRead++;
    replaceRules(compiled);
    logger.info({ by: caller.kind === 'admin' ? caller.via : caller.kind }, 'realtime database rules replaced');
    send(res, 200, { status: 'ok' });
  }
}

/** Whose streams a caller's count against (undefined: anonymous, the first to make way). */
function streamOwner(caller: RtdbCaller): string | undefined {
  switch (caller.kind) {
    case 'anonymous':
      return undefined;
    case 'user':
      return `user:${caller.auth.uid}`;
    case 'admin':
      return caller.via === 'secret' ? `secret:${caller.secretId}` : `service-account:${caller.clientEmail}`;
  }
}

/** The request's method; a POST may name another in `X-HTTP-Method-Override`, as the real database allows. */
function effectiveMethod(req: IncomingMessage): string {
  const method = req.method ?? 'GET';
  const override = req.headers['x-http-method-override'];
  if (override === undefined) return method;
  const named = (Array.isArray(override) ? override.join(',') : override).trim().toUpperCase();
  if (method !== 'POST' || !OVERRIDABLE.has(named)) throw new RtdbError(400, 'X-HTTP-Method-Override names PATCH, PUT or DELETE, on a POST');
  return named;
}

async function readStoredRules(store: RtdbStore): Promise<unknown> {
  const stored = await store.getSetting(RULES_SETTING);
  return stored === undefined ? DEFAULT_RULES : JSON.parse(stored);
}

function writesOf(method: string, path: DbPath, body: unknown, pushKey: string | undefined): DbWrite[] {
  let writes: DbWrite[];
  if (method === 'PATCH') {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new RtdbError(400, 'Invalid data; PATCH takes an object of children to update');
    writes = Object.entries(body).map(([key, value]) => {
      try {
        return { path: [...path, ...parseDbPath(key)], value: value as DbValue };
      } catch (error) {
        throw new RtdbError(400, `Invalid data; ${(error as Error).message}`);
      }
    });
    // A multi-location update must not name a location twice, or one inside another.
    const keys = writes.map((w) => w.path.join('/'));
    for (const a of keys) for (const b of keys) if (a !== b && b.startsWith(a + '/')) throw new RtdbError(400, `Invalid data; "${a}" and "${b}" overlap`);
  } else if (method === 'POST') {
    writes = [{ path: [...path, pushKey!], value: body as DbValue }];
  } else {
    writes = [{ path, value: (body ?? null) as DbValue }];
  }
  // The data is checked with each server value standing in as a number (its kind of result).
  let checked: DbWrite[];
  try {
    checked = hasServerValues(writes) ? withStandIns(writes) : writes;
  } catch (error) {
    if (error instanceof ServerValueError) throw new RtdbError(400, `Invalid data; ${error.message}`);
    throw error;
  }
  for (const write of checked) {
    try {
      flatten(write.path, write.value);
    } catch (error) {
      if (error instanceof DbPathError) throw new RtdbError(400, `Invalid data; ${error.message}`);
      throw error;
    }
  }
  return writes;
}

/** What a PUT or PATCH answers with server values resolved: the written values, shaped like the body. */
function writtenBody(method: string, path: DbPath, writes: readonly DbWrite[] | undefined, body: unknown): unknown {
  if (!writes) return body;
  if (method !== 'PATCH') return writes[0]?.value ?? null;
  return record(writes.map((write) => [write.path.slice(path.length).join('/'), write.value] as const));
}

/** `timeout=`'s milliseconds, or undefined. */
function parseTimeout(text: string | null): number | undefined {
  if (text === null) return undefined;
  const match = TIMEOUT.exec(text);
  if (!match) throw new RtdbError(400, 'timeout must be a positive whole number followed by ms, s or min (e.g. 3s), at most 15min');
  const ms = Number(match[1]) * (match[2] === 'ms' ? 1 : match[2] === 's' ? 1000 : 60_000);
  if (ms > MAX_TIMEOUT_MS) throw new RtdbError(400, 'timeout must be at most 15min');
  return ms;
}

function shallowOf(value: DbValue): DbValue {
  if (value === null || typeof value !== 'object') return value;
  return record(Object.keys(value).map((key) => [key, true] as const));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RtdbError(400, 'Invalid path: not valid percent-encoding');
  }
}

/**
 * A write's body, read and parsed within the real database's limits (yielding to other requests
 * while it parses; see server/http/body.ts), in the database's own error shape.
 */
async function readBody(req: IncomingMessage): Promise<unknown> {
  const limitError = (error: JsonLimitError, headers: Record<string, string> = {}) =>
    error.limit === 'values'
      ? new RtdbError(413, `Payload too large: a write holds at most ${MAX_WRITE_VALUES} values (objects, arrays and leaves); write the data in parts`, { headers })
      : new RtdbError(400, `Invalid data; ${error.message}${error.pointer ? ` (at ${error.pointer})` : ''}`, { headers });
  let text: string;
  try {
    text = await readBodyText(req, MAX_WRITE_BYTES, { tooLarge: `Payload too large: writes are at most ${MAX_WRITE_BYTES} bytes`, scan: WRITE_LIMITS });
  } catch (error) {
    if (error instanceof HttpProblem) throw new RtdbError(error.status, error.detail, { headers: error.headers });
    // Refused while reading: the rest of the upload is discarded unread.
    if (error instanceof JsonLimitError) throw limitError(error, headersAfterRefusingUnread(req));
    throw error;
  }
  try {
    // Yielding while it parses; every object without a prototype, so keys such as `constructor` are only data.
    return await parseJsonYielding(text, WRITE_LIMITS);
  } catch (error) {
    if (error instanceof JsonLimitError) throw limitError(error);
    throw new RtdbError(400, `Invalid data; couldn't parse JSON object, array, or value: ${(error as Error).message}`);
  }
}

function send(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}, format: (value: unknown) => string = JSON.stringify, headOnly = false): void {
  const body = format(value);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(headOnly ? undefined : body);
}
