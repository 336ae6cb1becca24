// The service's HIBP client against the stand-in of HIBP's API v3: what it sends (user agent,
// key, truncated account searches) and how it reads every documented answer. The stand-in's own
// strictness (403 without a user agent, 401 wording, filters) is checked here too, with raw fetch.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HibpClient, HibpError, HIBP_USER_AGENT, MAX_ANSWER_BYTES } from '../../../server/hibp/client.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { KEY, OTHER_KEY } from '../../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP client'))('HibpClient against the HIBP stand-in', () => {
  let standIn: HibpStandIn;
  let client: HibpClient;
  beforeAll(async () => {
    standIn = await HibpStandIn.start({
      keys: { [KEY]: { rpm: 1000, stealerLogs: true, domains: ['acme.example'], subscriptionName: 'Pwned 3' } },
      accounts: { 'alice@example.com': ['Adobe', 'AshleyMadison', '126'], 'ceo@acme.example': ['LinkedIn', 'AshleyMadison'] },
      stealerLogs: { 'alice@example.com': ['spotify.com', 'netflix.com'] },
    });
    client = new HibpClient({ baseUrl: standIn.url, apiKey: KEY, timeoutMs: 5000 });
  });
  afterAll(() => standIn.close());

  const raw = (path: string, headers: Record<string, string>) => fetch(`${standIn.url}/${path}`, { headers });

  it('reads the subscription: plan, Rpm, stealer logs', async () => {
    expect(await client.subscriptionStatus()).toMatchObject({ SubscriptionName: 'Pwned 3', Rpm: 1000, IncludesStealerLogs: true });
  });

  it('asks the truncated account search with its user agent and key, and gets what HIBP shows (no sensitive breach)', async () => {
    const before = standIn.requests.length;
    expect((await client.breachedAccount('Alice@Example.com')).sort()).toEqual(['126', 'Adobe']);
    const sent = standIn.requests.slice(before);
    expect(sent).toEqual([expect.objectContaining({ path: 'breachedaccount/Alice%40Example.com?truncateResponse=true', key: KEY, userAgent: HIBP_USER_AGENT, status: 200 })]);
    expect(HIBP_USER_AGENT).toMatch(/^BreachMonitor-Service\/\d+\.\d+\.\d+ \(/);
  });

  it('reads a 404 as "in no breach"', async () => {
    expect(await client.breachedAccount('nobody@example.com')).toEqual([]);
    expect(standIn.requests.at(-1)!.status).toBe(404);
  });

  it('searches a domain verified on the key (sensitive breaches included for the owner) and reads stealer logs', async () => {
    expect(await client.breachedDomain('acme.example')).toEqual({ ceo: ['AshleyMadison', 'LinkedIn'] });
    expect(await client.stealerLogsByEmail('alice@example.com')).toEqual({ domains: ['netflix.com', 'spotify.com'], dropped: 0 });
    expect(await client.stealerLogsByEmail('nobody@example.com')).toEqual({ domains: [], dropped: 0 });
  });

  it('fetches the catalog without a key, through the hibp package', async () => {
    const keyless = new HibpClient({ baseUrl: standIn.url, apiKey: undefined, timeoutMs: 5000 });
    const catalog = (await keyless.breaches()) as { Name: string }[];
    expect(catalog.length).toBeGreaterThan(800);
    expect(standIn.requests.at(-1)).toMatchObject({ path: 'breaches', key: undefined, userAgent: HIBP_USER_AGENT });
  });

  it('names a refused key without ever quoting it', async () => {
    const refused = new HibpClient({ baseUrl: standIn.url, apiKey: OTHER_KEY, timeoutMs: 5000 });
    const error = await refused.breachedAccount('alice@example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HibpError);
    expect(error).toMatchObject({ kind: 'key-refused', status: 401 });
    expect(String((error as Error).message)).not.toContain(OTHER_KEY);
    expect(String((error as Error).message)).not.toContain('alice');
  });

  it('reads a 429 with its retry-after, and 5xx as unavailable', async () => {
    // A stand-in of its own: the 429 holds the key there for 7 s.
    const stormy = await HibpStandIn.start({ keys: { [KEY]: { rpm: 1000 } } });
    try {
      const stormyClient = new HibpClient({ baseUrl: stormy.url, apiKey: KEY, timeoutMs: 5000 });
      stormy.storm(() => 7);
      expect(await stormyClient.breachedAccount('alice@example.com').catch((e: unknown) => e)).toMatchObject({ kind: 'rate-limited', status: 429, retryAfterMs: 7000 });
      // A failing HIBP answers 503 whatever the key's standing.
      stormy.failNext(503, 1);
      expect(await stormyClient.breachedAccount('alice@example.com').catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable', status: 503 });
    } finally {
      await stormy.close();
    }
  });

  it('reads "cannot connect" and timeouts as unavailable', async () => {
    const nowhere = new HibpClient({ baseUrl: 'http://127.0.0.1:9/api/v3', apiKey: KEY, timeoutMs: 2000 });
    expect(await nowhere.breachedAccount('a@example.com').catch((e: unknown) => e)).toMatchObject({ kind: 'unavailable' });
  });

  describe('the stand-in, as strict as HIBP documents', () => {
    it('refuses a request without a user agent with 403', async () => {
      // fetch always sends one; an empty value is "no user agent" to the stand-in as to HIBP.
      const response = await raw('breaches', { 'user-agent': '' });
      expect(response.status).toBe(403);
    });

    it('words its 401s as the documentation does', async () => {
      expect(await (await raw('breachedaccount/a@example.com', { 'user-agent': 'test' })).text()).toBe('Access denied due to missing hibp-api-key.');
      expect(await (await raw('breachedaccount/a@example.com', { 'user-agent': 'test', 'hibp-api-key': 'short' })).text()).toBe('Access denied due to improperly formed hibp-api-key.');
      expect(await (await raw('breachedaccount/a@example.com', { 'user-agent': 'test', 'hibp-api-key': OTHER_KEY })).text()).toBe('Access denied due to invalid hibp-api-key.');
    });

    it('truncates by default, filters unverified breaches and by domain on request', async () => {
      const headers = { 'user-agent': 'test', 'hibp-api-key': KEY };
      expect(await (await raw('breachedaccount/alice@example.com', headers)).json()).toEqual([{ Name: 'Adobe' }, { Name: '126' }].sort((a, b) => (a.Name < b.Name ? -1 : 1)));
      const full = (await (await raw('breachedaccount/alice@example.com?truncateResponse=false', headers)).json()) as { Name: string; Domain: string }[];
      expect(full.map((b) => b.Domain).sort()).toEqual(['126.com', 'adobe.com']);
      expect(await (await raw('breachedaccount/alice@example.com?includeUnverified=false', headers)).json()).toEqual([{ Name: 'Adobe' }]);
      expect(await (await raw('breachedaccount/alice@example.com?domain=adobe.com', headers)).json()).toEqual([{ Name: 'Adobe' }]);
      expect((await raw('breacheddomain/other.example', headers)).status).toBe(403);
    });

    it('answers 429 with retry-after in whole seconds and the documented body once a key is over its Rpm', async () => {
      const small = await HibpStandIn.start({ keys: { [KEY]: { rpm: 2 } } });
      try {
        const headers = { 'user-agent': 'test', 'hibp-api-key': KEY };
        expect((await raw2(small, 'breachedaccount/a@example.com', headers)).status).toBe(404);
        expect((await raw2(small, 'breachedaccount/a@example.com', headers)).status).toBe(404);
        const limited = await raw2(small, 'breachedaccount/a@example.com', headers);
        expect(limited.status).toBe(429);
        expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
        expect(await limited.json()).toEqual({ statusCode: 429, message: expect.stringMatching(/^Rate limit is exceeded\. Try again in \d+ seconds\.$/) });
      } finally {
        await small.close();
      }
    });
  });
});

function raw2(standIn: HibpStandIn, path: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${standIn.url}/${path}`, { headers });
}

describe('HibpClient against an upstream whose answers are too large', () => {
  // A loopback server standing for a broken or hostile upstream: what it sends is counted, so a
  // refused answer can be seen to have been cut off rather than read to its end.
  let server: Server;
  let url: string;
  const sent = { bytes: 0 };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunk = Buffer.alloc(64 * 1024, 0x20); // spaces: valid JSON whitespace, whatever is cut
      if (req.url?.startsWith('/breachedaccount/declared')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX_ANSWER_BYTES.small + 1) });
        res.end(); // says more than it sends: refused from the header alone
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked: no length said
      sent.bytes = 0;
      const pump = () => {
        while (!res.destroyed && sent.bytes < 64 * 1024 * 1024) {
          sent.bytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => {});
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('refuses an answer longer than it may be, cutting it off instead of reading it all', async () => {
    const client = new HibpClient({ baseUrl: url, apiKey: KEY, timeoutMs: 10_000 });
    const error = await client.breachedAccount('alice@example.com').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HibpError);
    expect(error).toMatchObject({ kind: 'bad-answer', message: "GET breachedaccount: the answer is larger than 1 MB (HIBP's are far smaller); it was not read" });
    // The server stopped well short of the 64 MB it meant to send.
    await expect.poll(() => sent.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('gives the catalog a larger allowance, and still refuses past it', async () => {
    const keyless = new HibpClient({ baseUrl: url, apiKey: undefined, timeoutMs: 10_000 });
    await expect(keyless.breaches()).rejects.toMatchObject({ kind: 'bad-answer', message: "GET breaches: the answer is larger than 32 MB (HIBP's are far smaller); it was not read" });
  });

  it('refuses from Content-Length alone when the answer says it is too long', async () => {
    const client = new HibpClient({ baseUrl: url, apiKey: KEY, timeoutMs: 10_000 });
    await expect(client.breachedAccount('declared@example.com')).rejects.toMatchObject({ kind: 'bad-answer', message: expect.stringContaining('larger than 1 MB') });
  });
});
