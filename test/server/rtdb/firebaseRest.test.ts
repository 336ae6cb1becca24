// Firebase's REST interface, row by row, as Firebase documents it
// (https://firebase.google.com/docs/database/rest/retrieve-data, /rest/save-data,
// /rest/app-management and /security/indexing-data): queries and their rules (`.indexOn`,
// Firebase's sort order for keys and mixed values), print=silent and print=pretty,
// X-HTTP-Method-Override, server values, format=export, timeout and writeSizeLimit. Each row is
// method, location, query, headers and body → status and body; run on SQLite and PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { usePrivatePostgres } from '../../support/postgres.ts';
import { STORE_KINDS } from './stores.ts';

const postgres = usePrivatePostgres();

const DINOSAURS = {
  lambeosaurus: { height: 2.1, length: 12.5, weight: 5000 },
  stegosaurus: { height: 4, length: 9, weight: 2500 },
  linhenykus: { height: 0.6, length: 1, weight: 3 },
  pterodactyl: { height: 0.6, length: 0.8, weight: 1 },
  triceratops: { length: 9, weight: 6000 },
};
const SCORES = { bruhathkayosaurus: 55, lambeosaurus: 21, linhenykus: 80, pterodactyl: 93, stegosaurus: 5, triceratops: 22 };
/** One child of each kind Firebase orders: false, true, numbers, strings, objects. */
const MIXED = { a: 'x', b: true, c: false, d: 3, e: { z: 1 }, g: -1, h: 'abc' };
/** Integer-like keys (32-bit) sort first, numerically; the rest as strings. */
const KEYS = { '10': 1, '9': 1, '-3': 1, a: 1, B: 1, '2147483648': 1 };
const RULES = {
  rules: {
    dinosaurs: { '.read': true, '.indexOn': ['height', 'length'] },
    scores: { '.read': true, '.indexOn': '.value' },
    mixed: { '.read': true, '.indexOn': ['.value'] },
    keys: { '.read': true },
    counters: { '.read': true, '.write': true },
    users: { $uid: { '.read': 'auth != null && auth.uid === $uid', '.write': 'auth != null && auth.uid === $uid' } },
  },
};

interface Row {
  case: string;
  method: string;
  location: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Without credentials; else the legacy secret (full access). */
  anonymous?: boolean;
  status: number;
  /** The parsed JSON answer, or `''` for none; a function checks it otherwise. */
  answer: unknown;
}

const q = (value: unknown) => JSON.stringify(value);
const denied = { error: 'Permission denied' };
const error = (message: string) => ({ error: message });

const ROWS: Row[] = [
  // orderBy a child, with its index
  {
    case: 'orderBy child + limitToFirst: null first, ties by key',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('height'), limitToFirst: '2' },
    anonymous: true,
    status: 200,
    answer: { triceratops: DINOSAURS.triceratops, linhenykus: DINOSAURS.linhenykus },
  },
  {
    case: 'orderBy child + startAt',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('height'), startAt: '3' },
    anonymous: true,
    status: 200,
    answer: { stegosaurus: DINOSAURS.stegosaurus },
  },
  {
    case: 'orderBy child + endAt + limitToLast',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('height'), endAt: '2.1', limitToLast: '1' },
    anonymous: true,
    status: 200,
    answer: { lambeosaurus: DINOSAURS.lambeosaurus },
  },
  {
    case: 'orderBy child + equalTo',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('height'), equalTo: '0.6' },
    anonymous: true,
    status: 200,
    answer: { linhenykus: DINOSAURS.linhenykus, pterodactyl: DINOSAURS.pterodactyl },
  },
  {
    case: 'orderBy a second indexed child',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('length'), startAt: '9', endAt: '9' },
    anonymous: true,
    status: 200,
    answer: { stegosaurus: DINOSAURS.stegosaurus, triceratops: DINOSAURS.triceratops },
  },
  {
    case: "orderBy a child without .indexOn: Firebase's message",
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('weight') },
    anonymous: true,
    status: 400,
    answer: error('Index not defined, add ".indexOn": "weight", for path "/dinosaurs", to the rules'),
  },
  // $value, $key, $priority
  {
    case: 'orderBy $value + limitToLast',
    method: 'GET',
    location: 'scores',
    query: { orderBy: q('$value'), limitToLast: '3' },
    anonymous: true,
    status: 200,
    answer: { pterodactyl: 93, linhenykus: 80, bruhathkayosaurus: 55 },
  },
  {
    case: 'orderBy $value without .indexOn ".value"',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('$value') },
    anonymous: true,
    status: 400,
    answer: error('Index not defined, add ".indexOn": ".value", for path "/dinosaurs", to the rules'),
  },
  { case: 'mixed types: false, true come first', method: 'GET', location: 'mixed', query: { orderBy: q('$value'), limitToFirst: '2' }, anonymous: true, status: 200, answer: { c: false, b: true } },
  {
    case: 'mixed types: numbers, then strings',
    method: 'GET',
    location: 'mixed',
    query: { orderBy: q('$value'), startAt: '3', endAt: q('abc') },
    anonymous: true,
    status: 200,
    answer: { d: 3, h: 'abc' },
  },
  { case: 'mixed types: objects last', method: 'GET', location: 'mixed', query: { orderBy: q('$value'), limitToLast: '1' }, anonymous: true, status: 200, answer: { e: { z: 1 } } },
  {
    case: 'orderBy $key needs no index; startAt/endAt on keys',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('$key'), startAt: q('l'), endAt: q('m') },
    anonymous: true,
    status: 200,
    answer: { lambeosaurus: DINOSAURS.lambeosaurus, linhenykus: DINOSAURS.linhenykus },
  },
  {
    case: '$key: 32-bit integer keys first, numerically',
    method: 'GET',
    location: 'keys',
    query: { orderBy: q('$key'), limitToFirst: '3' },
    anonymous: true,
    status: 200,
    answer: { '-3': 1, '9': 1, '10': 1 },
  },
  {
    case: '$key: then strings, lexicographically',
    method: 'GET',
    location: 'keys',
    query: { orderBy: q('$key'), limitToLast: '3' },
    anonymous: true,
    status: 200,
    answer: { '2147483648': 1, B: 1, a: 1 },
  },
  { case: '$key equalTo', method: 'GET', location: 'keys', query: { orderBy: q('$key'), equalTo: q('9') }, anonymous: true, status: 200, answer: { '9': 1 } },
  {
    case: 'orderBy $priority: no priorities here, so key order',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('$priority'), limitToFirst: '1' },
    anonymous: true,
    status: 200,
    answer: { lambeosaurus: DINOSAURS.lambeosaurus },
  },
  { case: 'a query of a leaf answers null', method: 'GET', location: 'scores/linhenykus', query: { orderBy: q('$key') }, anonymous: true, status: 200, answer: null },
  // refused queries
  {
    case: 'shallow cannot be mixed with a query',
    method: 'GET',
    location: 'dinosaurs',
    query: { shallow: 'true', orderBy: q('$key') },
    anonymous: true,
    status: 400,
    answer: error('shallow cannot be mixed with any other query parameters'),
  },
  {
    case: 'filters need orderBy',
    method: 'GET',
    location: 'dinosaurs',
    query: { limitToFirst: '2' },
    anonymous: true,
    status: 400,
    answer: error('orderBy must be defined when other query parameters are defined'),
  },
  { case: 'orderBy must be JSON-quoted', method: 'GET', location: 'dinosaurs', query: { orderBy: '$key' }, anonymous: true, status: 400, answer: error('orderBy must be a valid JSON encoded path') },
  {
    case: '$key bounds are strings',
    method: 'GET',
    location: 'keys',
    query: { orderBy: q('$key'), startAt: '9' },
    anonymous: true,
    status: 400,
    answer: error('startAt: when orderBy is "$key", startAt must be a string'),
  },
  {
    case: 'limits are positive integers',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('$key'), limitToFirst: '0' },
    anonymous: true,
    status: 400,
    answer: error('limitToFirst must be a positive integer'),
  },
  {
    case: 'one limit at a time',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('$key'), limitToFirst: '1', limitToLast: '1' },
    anonymous: true,
    status: 400,
    answer: error('limitToFirst and limitToLast cannot both be set'),
  },
  {
    case: 'bounds are JSON values',
    method: 'GET',
    location: 'dinosaurs',
    query: { orderBy: q('height'), startAt: 'tall' },
    anonymous: true,
    status: 400,
    answer: error('startAt must be a JSON value: a "quoted string", a number, true, false or null'),
  },
  {
    case: 'queries are reads',
    method: 'PUT',
    location: 'counters/q',
    query: { orderBy: q('$key') },
    body: 1,
    status: 400,
    answer: error('query parameters (orderBy, limitToFirst, limitToLast, startAt, endAt, equalTo) apply to reads only'),
  },
  // queries under the rules: the location must be readable, whatever the filter
  { case: 'a query of a location the caller may not read', method: 'GET', location: 'users', query: { orderBy: q('$key'), equalTo: q('alice') }, anonymous: true, status: 401, answer: denied },
  { case: 'a query of an unreadable location is refused before its index is checked', method: 'GET', location: 'users', query: { orderBy: q('secret') }, anonymous: true, status: 401, answer: denied },
  // print
  { case: 'print=silent on a read: 204, no body', method: 'GET', location: 'scores', query: { print: 'silent' }, anonymous: true, status: 204, answer: '' },
  { case: 'print=silent on a write: 204, no body', method: 'PUT', location: 'counters/silent', query: { print: 'silent' }, body: { kept: true }, status: 204, answer: '' },
  { case: '…and the silent write was made', method: 'GET', location: 'counters/silent', anonymous: true, status: 200, answer: { kept: true } },
  { case: 'print=pretty', method: 'GET', location: 'scores/stegosaurus', query: { print: 'pretty' }, anonymous: true, status: 200, answer: 5 },
  // X-HTTP-Method-Override (POST standing in for PATCH, PUT or DELETE)
  { case: 'POST + override PUT', method: 'POST', location: 'counters/over', headers: { 'x-http-method-override': 'PUT' }, body: { a: 1 }, status: 200, answer: { a: 1 } },
  { case: 'POST + override PATCH merges, no push id', method: 'POST', location: 'counters/over', headers: { 'x-http-method-override': 'PATCH' }, body: { b: 2 }, status: 200, answer: { b: 2 } },
  { case: '…the PATCH merged', method: 'GET', location: 'counters/over', anonymous: true, status: 200, answer: { a: 1, b: 2 } },
  { case: 'POST + override DELETE', method: 'POST', location: 'counters/over', headers: { 'x-http-method-override': 'DELETE' }, status: 200, answer: null },
  { case: '…deleted', method: 'GET', location: 'counters/over', anonymous: true, status: 200, answer: null },
  {
    case: 'override GET is not one Firebase documents',
    method: 'POST',
    location: 'counters/over',
    headers: { 'x-http-method-override': 'GET' },
    status: 400,
    answer: error('X-HTTP-Method-Override names PATCH, PUT or DELETE, on a POST'),
  },
  {
    case: 'override only on a POST',
    method: 'PUT',
    location: 'counters/over',
    headers: { 'x-http-method-override': 'DELETE' },
    body: 1,
    status: 400,
    answer: error('X-HTTP-Method-Override names PATCH, PUT or DELETE, on a POST'),
  },
  // server values
  { case: 'increment of nothing is the increment', method: 'PUT', location: 'counters/n', body: { '.sv': { increment: 5 } }, status: 200, answer: 5 },
  { case: 'increment adds to the stored number', method: 'PUT', location: 'counters/n', body: { '.sv': { increment: 5 } }, status: 200, answer: 10 },
  { case: 'increment in a PATCH, negative', method: 'PATCH', location: 'counters', body: { n: { '.sv': { increment: -1.5 } } }, status: 200, answer: { n: 8.5 } },
  { case: 'increment of a string replaces it', method: 'PUT', location: 'counters/s', body: 'text', status: 200, answer: 'text' },
  { case: '…with the increment', method: 'PATCH', location: 'counters', body: { s: { '.sv': { increment: 2 } } }, status: 200, answer: { s: 2 } },
  {
    case: 'timestamp, nested in a POST',
    method: 'POST',
    location: 'counters/log',
    body: { at: { '.sv': 'timestamp' } },
    status: 200,
    answer: (body: unknown) => typeof (body as { name: unknown }).name === 'string',
  },
  {
    case: 'an unknown server value',
    method: 'PUT',
    location: 'counters/bad',
    body: { '.sv': 'now' },
    status: 400,
    answer: error('Invalid data; unknown server value at /counters/bad: ".sv" takes "timestamp" or {"increment": n}'),
  },
  {
    case: 'an increment by a string',
    method: 'PUT',
    location: 'counters/bad',
    body: { '.sv': { increment: '1' } },
    status: 400,
    answer: error('Invalid data; {".sv": {"increment": n}} at /counters/bad takes a finite number'),
  },
  {
    case: '.sv beside other keys',
    method: 'PUT',
    location: 'counters/bad',
    body: { '.sv': 'timestamp', x: 1 },
    status: 400,
    answer: error('Invalid data; a server value at /counters/bad must be the only key of its object'),
  },
  // format, timeout, writeSizeLimit
  { case: 'format=export (no priorities are stored, so the plain value)', method: 'GET', location: 'scores/stegosaurus', query: { format: 'export' }, anonymous: true, status: 200, answer: 5 },
  { case: 'format other than export', method: 'GET', location: 'scores', query: { format: 'xml' }, anonymous: true, status: 400, answer: error('format must be export') },
  { case: 'timeout=3s', method: 'GET', location: 'scores/stegosaurus', query: { timeout: '3s' }, anonymous: true, status: 200, answer: 5 },
  {
    case: 'timeout=500ms on a query',
    method: 'GET',
    location: 'scores',
    query: { timeout: '500ms', orderBy: q('$value'), limitToFirst: '1' },
    anonymous: true,
    status: 200,
    answer: { stegosaurus: 5 },
  },
  {
    case: 'timeout without a unit',
    method: 'GET',
    location: 'scores',
    query: { timeout: '3' },
    anonymous: true,
    status: 400,
    answer: error('timeout must be a positive whole number followed by ms, s or min (e.g. 3s), at most 15min'),
  },
  { case: 'timeout over 15min', method: 'GET', location: 'scores', query: { timeout: '16min' }, anonymous: true, status: 400, answer: error('timeout must be at most 15min') },
  { case: 'writeSizeLimit=tiny', method: 'PUT', location: 'counters/sized', query: { writeSizeLimit: 'tiny' }, body: 1, status: 200, answer: 1 },
  { case: 'writeSizeLimit=unlimited', method: 'PUT', location: 'counters/sized', query: { writeSizeLimit: 'unlimited' }, body: 2, status: 200, answer: 2 },
  {
    case: "writeSizeLimit outside Firebase's five",
    method: 'PUT',
    location: 'counters/sized',
    query: { writeSizeLimit: 'huge' },
    body: 3,
    status: 400,
    answer: error('writeSizeLimit must be one of tiny, small, medium, large, unlimited'),
  },
  // .indexOn in the rules is checked when they are set
  {
    case: '.indexOn must name children',
    method: 'PUT',
    location: '.settings/rules',
    body: { rules: { scores: { '.indexOn': 3 } } },
    status: 400,
    answer: error('Invalid rules: /scores/.indexOn must be a child path or ".value", or an array of them'),
  },
];

describe.each(STORE_KINDS)("Firebase's REST interface on %s", (kind) => {
  let service: RunningService | undefined;
  let dataDir: string;
  let secret: string;
  let unavailable = false;
  const send = (row: Pick<Row, 'method' | 'location' | 'query' | 'headers' | 'body' | 'anonymous'>) => {
    const query = new URLSearchParams({ ...(row.anonymous ? {} : { auth: secret }), ...row.query }).toString();
    return fetch(`${service!.url}/rtdb/${row.location}.json${query ? `?${query}` : ''}`, {
      method: row.method,
      headers: row.headers ?? {},
      ...(row.body === undefined ? {} : { body: JSON.stringify(row.body) }),
    });
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'rtdb-firebase-'));
    let databaseUrl: string | undefined;
    if (kind === 'postgres') {
      const server = postgres.server();
      if (!server) {
        unavailable = true;
        return;
      }
      databaseUrl = await server.createDatabase();
    }
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) });
    const created = await fetch(`${service.url}/__dev/rtdb-secrets`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    secret = ((await created.json()) as { secret: string }).secret;
    for (const [location, body] of Object.entries({ '.settings/rules': RULES, dinosaurs: DINOSAURS, scores: SCORES, mixed: MIXED, keys: KEYS })) {
      const put = await send({ method: 'PUT', location, body });
      expect(put.status, `${location}: ${await put.clone().text()}`).toBe(200);
    }
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (unavailable) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  it('answers every row of the table as Firebase documents', async () => {
    const failures: string[] = [];
    for (const row of ROWS) {
      const response = await send(row);
      const text = await response.text();
      const body = text === '' ? '' : (JSON.parse(text) as unknown);
      const matches = typeof row.answer === 'function' ? (row.answer as (b: unknown) => boolean)(body) : JSON.stringify(sortDeep(body)) === JSON.stringify(sortDeep(row.answer));
      if (response.status !== row.status || !matches) failures.push(`${row.case}: ${row.method} ${row.location} ${JSON.stringify(row.query ?? {})} → ${response.status} ${text.slice(0, 300)}`);
    }
    expect(failures).toEqual([]);
  });

  it('print=pretty indents; a plain read does not', async () => {
    expect(await (await send({ method: 'GET', location: 'mixed/e', query: { print: 'pretty' }, anonymous: true })).text()).toBe('{\n  "z": 1\n}');
    expect(await (await send({ method: 'GET', location: 'mixed/e', anonymous: true })).text()).toBe('{"z":1}');
  });

  it('a timestamp is the server time in milliseconds, the same in the answer and in the data', async () => {
    const before = Date.now();
    const put = await send({ method: 'PUT', location: 'counters/stamp', body: { at: { '.sv': 'timestamp' } } });
    const after = Date.now();
    const answered = ((await put.json()) as { at: number }).at;
    expect(answered).toBeGreaterThanOrEqual(before);
    expect(answered).toBeLessThanOrEqual(after);
    expect(await (await send({ method: 'GET', location: 'counters/stamp/at', anonymous: true })).json()).toBe(answered);
  });

  it('loses no increment among 40 sent at once', async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, () => send({ method: 'PUT', location: 'counters/concurrent', body: { '.sv': { increment: 1 } }, anonymous: true })));
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 40 }, () => 200));
    // Each answer is the value its own transaction wrote: 1 to 40, each once.
    expect((await Promise.all(answers.map(async (answer) => (await answer.json()) as number))).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await (await send({ method: 'GET', location: 'counters/concurrent', anonymous: true })).json()).toBe(40);
  });

  it('gives a query its own ETag, and answers 304 to it while its answer is unchanged', async () => {
    const query = { orderBy: q('$value'), limitToFirst: '2' };
    const first = await send({ method: 'GET', location: 'scores', query, headers: { 'x-firebase-etag': 'true' }, anonymous: true });
    const etag = first.headers.get('etag')!;
    expect(await first.json()).toEqual({ stegosaurus: 5, lambeosaurus: 21 });
    const whole = await send({ method: 'GET', location: 'scores', headers: { 'x-firebase-etag': 'true' }, anonymous: true });
    expect(whole.headers.get('etag')).not.toBe(etag);
    const again = await send({ method: 'GET', location: 'scores', query, headers: { 'x-firebase-etag': 'true', 'if-none-match': etag }, anonymous: true });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('refuses a streaming query rather than streaming the whole location', async () => {
    const response = await send({ method: 'GET', location: 'scores', query: { orderBy: q('$key') }, headers: { accept: 'text/event-stream' }, anonymous: true });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/streaming reads of a query are not supported/);
  });
});

/** JSON objects are unordered: compare them with sorted keys. */
function sortDeep(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sortDeep);
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortDeep((value as Record<string, unknown>)[key])]),
  );
}
