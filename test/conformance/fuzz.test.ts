// Property-based fuzzing of the request surface (fast-check, fixed seeds): whatever is sent,
// the service never fails (5xx), every non-2xx answer is problem+json whose `status` equals
// the HTTP status, and every 2xx answer has the contract's shape. The query filters are also
// checked against an independent model of the contract's filter and order rules.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Problem, UserBreachList, type Breach } from '../../shared/api/index.ts';
import { type HttpResult, type TestUser, useClient } from './client.ts';

const client = useClient();

const RUNS = 200;
const settings = (seed: number) => ({ numRuns: RUNS, seed, endOnFailure: true });
const FUZZ_TIMEOUT = 90_000;

const CLASSES = ['Email addresses', 'IP addresses', 'Passwords', 'Phone numbers', 'Usernames'];

let breaches: Breach[];
let user: TestUser;
/** Resolved (breach id → email → class names) as set up before the query properties run. */
let resolved: Map<string, Map<string, Set<string>>>;

beforeAll(async () => {
  breaches = [];
  const shapes: { classes: string[]; sensitive: boolean; date: string; added: string; domainOf?: number }[] = [
    { classes: ['Email addresses', 'Passwords'], sensitive: false, date: '2023-01-01', added: '2023-02-01T00:00:00Z' },
    { classes: ['Email addresses', 'Phone numbers', 'Usernames'], sensitive: false, date: '2023-01-01', added: '2023-03-01T00:00:00Z', domainOf: 0 },
    { classes: ['IP addresses', 'Passwords'], sensitive: true, date: '2022-05-05', added: '2022-06-01T00:00:00Z' },
    { classes: ['Usernames'], sensitive: false, date: '2021-01-01', added: '2021-01-02T00:00:00Z' },
    { classes: ['Email addresses', 'IP addresses', 'Passwords', 'Phone numbers', 'Usernames'], sensitive: false, date: '2021-01-01', added: '2021-01-02T00:00:00Z' },
    { classes: ['Phone numbers'], sensitive: true, date: '2020-07-07', added: '2020-08-01T00:00:00Z', domainOf: 2 },
  ];
  for (const shape of shapes) {
    const domain = shape.domainOf === undefined ? undefined : breaches[shape.domainOf]!.domain;
    breaches.push(
      await client.addBreach({
        dataClasses: shape.classes,
        isSensitive: shape.sensitive,
        breachDate: shape.date,
        addedDate: shape.added,
        ...(domain ? { domain } : {}),
      }),
    );
  }
  user = await client.newUser({ emails: 3 });
  const [e1, e2, e3] = user.emails as [string, string, string];
  const ids = breaches.map((breach) => breach.id);
  await client.putExposures(e1, ids);
  await client.putExposures(e2, [ids[0]!, ids[2]!, ids[4]!]);
  await client.putExposures(e3, [ids[1]!, ids[5]!]);
});

/** Reads the user's resolution state (the fuzzed POSTs may have changed it). */
async function readResolved(): Promise<Map<string, Map<string, Set<string>>>> {
  const { items } = await client.list(user.token, 'includeSensitive=true');
  return new Map(items.map((item) => [item.breach.id, new Map(item.breachedAccounts.map((account) => [account.email, new Set(Object.keys(account.resolvedDataClasses))]))]));
}

/** The contract's invariants of any answer. */
function expectWellFormed(result: HttpResult, context: string): void {
  expect(result.status, `${context} → ${result.status} ${result.text}`).toBeLessThan(500);
  if (result.status >= 200 && result.status < 300) return;
  expect(result.headers.get('content-type') ?? '', context).toMatch(/^application\/problem\+json/i);
  const problem = Problem.safeParse(result.json);
  expect(problem.success, `${context} → ${result.text}`).toBe(true);
  expect(problem.data!.status, context).toBe(result.status);
  if (result.status === 400) expect(problem.data!.errors?.length ?? 0, context).toBeGreaterThan(0);
}

function expectResolutionAnswer(result: HttpResult, context: string): void {
  expectWellFormed(result, context);
  if (result.status < 300) {
    expect(result.status, context).toBe(204);
    expect(result.text, context).toBe('');
  }
}

const postRaw = (rawBody: string, contentType = 'application/json') => client.api('POST', '/user/breaches/resolutions', { token: user.token, rawBody, contentType });

describe('fuzzing POST /user/breaches/resolutions', () => {
  it('arbitrary JSON bodies', { timeout: FUZZ_TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (body) => {
        const text = JSON.stringify(body);
        expectResolutionAnswer(await postRaw(text), text);
      }),
      settings(0xb0d1),
    );
  });

  it('arbitrary JSON arrays of object-ish items', { timeout: FUZZ_TIMEOUT }, async () => {
    const field = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(...breaches.map((b) => b.id)), fc.array(fc.constantFrom(...CLASSES, ...user.emails)));
    const item = fc.dictionary(fc.constantFrom('breachId', 'dataClasses', 'resolved', 'emails', 'extra', '__proto__', 'constructor', ''), field, { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 5 }), async (body) => {
        const text = JSON.stringify(body);
        expectResolutionAnswer(await postRaw(text), text);
      }),
      settings(0x17e5),
    );
  });

  it('arbitrary mutations of valid bodies', { timeout: FUZZ_TIMEOUT }, async () => {
    const validItem = fc.record(
      {
        breachId: fc.constantFrom(...breaches.map((breach) => breach.id)),
        dataClasses: fc.uniqueArray(fc.constantFrom(...CLASSES), { minLength: 1 }),
        resolved: fc.boolean(),
        emails: fc.uniqueArray(fc.constantFrom(...user.emails), { minLength: 1 }),
      },
      { requiredKeys: ['breachId', 'dataClasses', 'resolved'] },
    );
    const fields = fc.constantFrom('breachId', 'dataClasses', 'resolved', 'emails', 'unknown', '__proto__');
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), at: fc.nat(), field: fields, value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), field: fields }),
      fc.record({
        kind: fc.constant('element' as const),
        at: fc.nat(),
        field: fc.constantFrom('dataClasses', 'emails'),
        value: fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
      }),
      fc.record({ kind: fc.constant('case' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant('wrap' as const) }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    );
    type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

    function mutate(body: unknown[], mutations: Mutation[]): { text: string } {
      let value: unknown = structuredClone(body);
      let truncateAt: number | undefined;
      for (const m of mutations) {
        if (m.kind === 'wrap') {
          value = { items: value };
          continue;
        }
        if (m.kind === 'truncate') {
          truncateAt = m.at;
          continue;
        }
        if (!Array.isArray(value) || value.length === 0) continue;
        const index = m.at % value.length;
        const item = value[index] as Record<string, unknown> | unknown;
        if (m.kind === 'duplicate') value.push(structuredClone(item));
        else if (m.kind === 'replace') value[index] = m.value;
        else if (item && typeof item === 'object' && !Array.isArray(item)) {
          const record = item as Record<string, unknown>;
          if (m.kind === 'set') Object.defineProperty(record, m.field, { value: m.value, enumerable: true, configurable: true, writable: true });
          else if (m.kind === 'delete') delete record[m.field];
          else if (m.kind === 'element') {
            const list = record[m.field];
            if (Array.isArray(list)) list.splice(m.at % (list.length + 1), 0, m.value);
          } else if (m.kind === 'case' && Array.isArray(record.dataClasses)) {
            record.dataClasses = record.dataClasses.map((name: unknown) => (typeof name === 'string' ? name.toUpperCase() : name));
          }
        }
      }
      let text = JSON.stringify(value);
      if (truncateAt !== undefined) text = text.slice(0, truncateAt % (text.length + 1));
      return { text };
    }

    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(validItem, { maxLength: 4, selector: (item) => item.breachId }), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (body, mutations) => {
        const { text } = mutate(body, mutations);
        expectResolutionAnswer(await postRaw(text), text);
      }),
      settings(0x3a7e),
    );
  });

  it('arbitrary raw bodies and media types', { timeout: FUZZ_TIMEOUT }, async () => {
    const raw = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.tuple(fc.json({ maxDepth: 3 }), fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
      fc.constantFrom('[', ']', '{}', '[{}]', '[[]]', '"[]"', 'null', 'true', '1e999', '-0', '[1,]', '\uFEFF[]', '[]\u0000', '[' + '['.repeat(5000)),
    );
    const type = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/problem+json',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      ';',
      'json',
    );
    await fc.assert(
      fc.asyncProperty(raw, type, async (text, contentType) => {
        expectResolutionAnswer(await postRaw(text, contentType), `${contentType}: ${JSON.stringify(text)}`);
      }),
      settings(0x5eed),
    );
  });

  it('the user’s list stays valid after all of that', async () => {
    const { items } = await client.list(user.token, 'includeSensitive=true');
    expect(items.map((item) => item.breach.id).sort()).toEqual(breaches.map((breach) => breach.id).sort());
  });
});

describe('fuzzing GET /user/breaches query strings', () => {
  const NAMES = ['domain', 'dataClasses', 'unresolvedDataClasses', 'includeSensitive'];
  const SPECIAL = ['', 'true', 'false', '%', '%%', '%zz', '%FF%FE', '%00', '%C0%AF', '+', '%2B', '=', '==', ';', '%26', '%3D', '..', '\u00e9', '\u{1F600}', 'Passwords', 'PASSWORDS'];

  const name = fc.oneof(fc.constantFrom(...NAMES, 'DOMAIN', 'dataclasses', 'includeSensitive[]', 'dataClasses[0]', '', '%64omain'), fc.string({ unit: 'grapheme', maxLength: 8 }));
  const value = fc.oneof(fc.constantFrom(...SPECIAL), fc.string({ unit: 'grapheme', maxLength: 16 }), fc.string({ unit: 'binary-ascii', maxLength: 16 }));
  const encoding = fc.constantFrom('encoded', 'raw', 'form');
  const pair = fc.tuple(name, value, encoding).map(([n, v, how]) => {
    if (how === 'encoded') return `${safeEncode(n)}=${safeEncode(v)}`;
    if (how === 'form') return new URLSearchParams([[n, v]]).toString();
    // Raw: whatever the client sends; only '#' (fragment) is escaped so the query survives.
    return `${n.replaceAll('#', '%23')}=${v.replaceAll('#', '%23')}`;
  });
  const query = fc.tuple(fc.array(pair, { maxLength: 8 }), fc.constantFrom('&', '&&', ';', '&;')).map(([pairs, joiner]) => pairs.join(joiner));

  it('never fails and always answers in shape', { timeout: FUZZ_TIMEOUT }, async () => {
    const own = new Set(breaches.map((breach) => breach.id));
    await fc.assert(
      fc.asyncProperty(query, async (search) => {
        const result = await client.api('GET', `/user/breaches?${search}`, { token: user.token });
        expectWellFormed(result, search);
        if (result.status === 200) {
          const parsed = UserBreachList.safeParse(result.json);
          expect(parsed.success, search).toBe(true);
          for (const item of parsed.data!) expect(own.has(item.breach.id), search).toBe(true);
        } else {
          expect([304, 400], search).toContain(result.status);
        }
      }),
      settings(0x9e77),
    );
  });

  it('valid filter combinations match an independent model of the contract', { timeout: FUZZ_TIMEOUT }, async () => {
    resolved = await readResolved();
    const classArb = fc.constantFrom(...CLASSES, 'Nothing', 'Credit cards').chain((name) => fc.constantFrom(name, name.toUpperCase(), name.toLowerCase()));
    const filters = fc.record(
      {
        domain: fc.oneof(fc.constantFrom(...breaches.map((breach) => breach.domain)), fc.constantFrom('nowhere.example', breaches[0]!.domain.slice(1))),
        dataClasses: fc.array(classArb, { minLength: 1, maxLength: 3 }),
        unresolvedDataClasses: fc.array(classArb, { minLength: 1, maxLength: 3 }),
        includeSensitive: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(filters, async (filter) => {
        const params = new URLSearchParams();
        if (filter.domain !== undefined) params.set('domain', filter.domain);
        for (const name of filter.dataClasses ?? []) params.append('dataClasses', name);
        for (const name of filter.unresolvedDataClasses ?? []) params.append('unresolvedDataClasses', name);
        if (filter.includeSensitive !== undefined) params.set('includeSensitive', String(filter.includeSensitive));
        const { items } = await client.list(user.token, params);
        expect(
          items.map((item) => item.breach.id),
          params.toString(),
        ).toEqual(expectedIds(filter));
      }),
      settings(0xf17e),
    );
  });
});

describe('fuzzing the request line and credentials', () => {
  it('arbitrary paths under the API prefix', { timeout: FUZZ_TIMEOUT }, async () => {
    const segment = fc.oneof(fc.constantFrom('user', 'breaches', 'resolutions', '..', '.', '', '%2F', '%00', 'USER'), fc.string({ unit: 'grapheme', maxLength: 10 }));
    const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD');
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), method, async (segments, verb) => {
        const path = '/' + segments.map(safeEncode).join('/');
        const result = await client.api(verb, path, { token: user.token, ...(verb === 'POST' || verb === 'PUT' ? { body: [] } : {}) });
        expect(result.status, `${verb} ${path}`).toBeLessThan(500);
        if (verb !== 'HEAD') expectWellFormed(result, `${verb} ${path}`);
      }),
      settings(0x9a7d),
    );
  });

  it('arbitrary Authorization headers answer 401', { timeout: FUZZ_TIMEOUT }, async () => {
    const header = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 200 }),
      fc.string({ unit: 'grapheme-ascii', maxLength: 200 }).map((token) => `Bearer ${token}`),
      fc.tuple(fc.nat({ max: 2 }), fc.string({ unit: 'grapheme-ascii', maxLength: 40 })).map(([part, junk]) => {
        const parts = user.token.split('.');
        parts[part] = (parts[part] ?? '') + junk.replace(/[^A-Za-z0-9_-]/g, '');
        return `Bearer ${parts.join('.')}`;
      }),
    );
    await fc.assert(
      fc.asyncProperty(header, async (authorization) => {
        if (authorization.trim() === `Bearer ${user.token}`) return;
        const result = await client.api('GET', '/user/breaches', { headers: { authorization } });
        expectWellFormed(result, authorization);
        expect(result.status, authorization).toBe(401);
      }),
      settings(0xa0a0),
    );
  });
});

/** encodeURIComponent that never throws (lone surrogates are replaced, as a UTF-8 client would). */
function safeEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

interface Filter {
  domain?: string;
  dataClasses?: string[];
  unresolvedDataClasses?: string[];
  includeSensitive?: boolean;
}

/** The contract, written independently of the service: filters AND, lists ANY, order by dates then id. */
function expectedIds(filter: Filter): string[] {
  const lower = (names: string[] | undefined) => (names ? new Set(names.map((name) => name.toLowerCase())) : undefined);
  const wanted = lower(filter.dataClasses);
  const unresolvedWanted = lower(filter.unresolvedDataClasses);
  return breaches
    .filter((breach) => resolved.has(breach.id))
    .filter((breach) => filter.includeSensitive === true || !breach.isSensitive)
    .filter((breach) => filter.domain === undefined || breach.domain === filter.domain)
    .filter((breach) => !wanted || breach.dataClasses.some((name) => wanted.has(name.toLowerCase())))
    .filter((breach) => {
      if (!unresolvedWanted) return true;
      const accounts = resolved.get(breach.id)!;
      return breach.dataClasses.some((name) => unresolvedWanted.has(name.toLowerCase()) && [...accounts.values()].some((done) => !done.has(name)));
    })
    .sort((a, b) => (a.breachDate !== b.breachDate ? (a.breachDate < b.breachDate ? 1 : -1) : Date.parse(b.addedDate) - Date.parse(a.addedDate) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
    .map((breach) => breach.id);
}
