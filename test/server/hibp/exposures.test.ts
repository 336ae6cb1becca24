// The reference service with Have I Been Pwned as its source, against the stand-in of HIBP's API
// (test/support/hibpStandIn.ts) on a simulated clock: exactly what HIBP holds for each address,
// a clean address told apart from one not checked yet, a refused key, domain search, stealer
// logs, and nothing invented without --demo.
import { rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BreachDataHeaders, FIREFOX_API_PREFIX, MONITOR_SCOPE } from '../../../shared/api/index.ts';
import type { RunningService } from '../../../server/app.ts';
import { HIBP_USER_AGENT } from '../../../server/hibp/client.ts';
import { createLogger, type Logger } from '../../../server/log.ts';
import { skipWithoutFixture } from '../../support/fixtures.ts';
import { breaches, checks, idsByEmail, KEY, OTHER_KEY, signIn, startAgainst, tempDir } from '../../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../../support/hibpStandIn.ts';
import { SimulatedClock } from '../../support/simulatedClock.ts';

const START = Date.parse('2026-03-02T09:00:00Z');
const dirs: string[] = [];
const running: { service?: RunningService; standIn?: HibpStandIn } = {};
afterEach(async () => {
  await running.service?.close();
  await running.standIn?.close();
  running.service = undefined;
  running.standIn = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ACCOUNTS = {
  // AshleyMadison is sensitive: HIBP's account search never returns it.
  'alice@example.com': ['Adobe', 'LinkedIn', 'AshleyMadison'],
  // 126 is unverified: returned, as includeUnverified defaults to true.
  'alice.work@example.com': ['Dropbox', '126'],
  'bob@example.org': ['Canva'],
};

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'HIBP exposures'))('exposures from Have I Been Pwned', () => {
  async function start(
    options: { rpm?: number; key?: string; domains?: string[]; stealerLogs?: boolean; stealer?: Record<string, string[]>; accounts?: Record<string, string[]>; logger?: Logger } = {},
  ) {
    const clock = new SimulatedClock(START, 1);
    const standIn = await HibpStandIn.start({
      keys: { [KEY]: { rpm: options.rpm ?? 10, stealerLogs: options.stealerLogs ?? false, domains: ['acme.example'] } },
      accounts: options.accounts ?? ACCOUNTS,
      stealerLogs: options.stealer ?? {},
      now: () => clock.now(),
    });
    running.standIn = standIn;
    const service = await startAgainst(
      standIn,
      clock,
      {
        dataDir: tempDir('hibp-exposures-', dirs),
        hibpApiKey: options.key ?? KEY,
        catalogFile: HIBP_FIXTURE_CATALOG,
        ...(options.domains ? { hibpDomains: options.domains } : {}),
      },
      options.logger,
    );
    running.service = service;
    return { clock, standIn, service };
  }

  it('answers exactly the breaches HIBP holds for each address, and an empty list for a checked clean one', async () => {
    const { clock, standIn, service } = await start();
    const emails = ['alice@example.com', 'alice.work@example.com', 'clean@example.net'];
    const token = await signIn(service, 'alice', emails);
    await clock.settle();
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);

    const answer = await breaches(service, token, '?includeSensitive=true');
    expect(answer.status).toBe(200);
    expect(answer.source).toBe('hibp');
    expect(answer.pending).toBe(0);
    expect(idsByEmail(answer.body)).toEqual({
      'alice@example.com': ['Adobe', 'LinkedIn'],
      'alice.work@example.com': ['126', 'Dropbox'],
    });
    expect(standIn.visibleBreaches('alice@example.com').sort()).toEqual(['Adobe', 'LinkedIn']);

    const known = await checks(service, token);
    expect(known.source).toBe('hibp');
    expect(known.pending).toBe(0);
    expect(known.body.attribution).toBe('Have I Been Pwned');
    expect(known.body.problem).toBeNull();
    expect(known.body.queue.requestsPerMinute).toBe(10);
    const clean = known.body.addresses.find((address) => address.email === 'clean@example.net')!;
    expect(clean).toMatchObject({ state: 'checked', breachCount: 0, viaDomainSearch: false });
    expect(Date.parse(clean.checkedAt!)).toBeGreaterThanOrEqual(START);
    expect(known.body.addresses.find((address) => address.email === 'alice@example.com')).toMatchObject({ state: 'checked', breachCount: 2 });

    // The newer Monitor contract says the same in the same headers.
    const minted = await fetch(`${service.url}/__dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub: 'alice', scope: `openid ${MONITOR_SCOPE}` }),
    });
    const monitorToken = ((await minted.json()) as { access_token: string }).access_token;
    const monitor = await fetch(service.url + FIREFOX_API_PREFIX + '/user/breaches', { headers: { authorization: `Bearer ${monitorToken}` } });
    expect(monitor.status).toBe(200);
    expect([monitor.headers.get(BreachDataHeaders.source), monitor.headers.get(BreachDataHeaders.pending)]).toEqual(['hibp', '0']);

    // What went to HIBP: the status, then one truncated account search per address, each with our user agent and the key.
    const lookups = standIn.requests.filter((request) => request.path.startsWith('breachedaccount/'));
    expect(lookups.map((request) => request.path).sort()).toEqual(emails.map((email) => `breachedaccount/${encodeURIComponent(email)}?truncateResponse=true`).sort());
    expect(standIn.requests.every((request) => request.userAgent === HIBP_USER_AGENT && request.key === KEY)).toBe(true);
    expect(standIn.requests[0]!.path).toBe('subscription/status');
  });

  it('tells an address not checked yet from a clean one: left out of the list, counted as pending, never "no breaches"', async () => {
    // One lookup a minute, and the status read at start took this minute's.
    const { clock, service } = await start({ rpm: 1 });
    const token = await signIn(service, 'bob', ['bob@example.org', 'a.clean@example.org']);
    await clock.settle();

    const before = await breaches(service, token);
    expect(before.body).toEqual([]);
    expect(before.pending).toBe(2);
    const waiting = await checks(service, token);
    expect(waiting.pending).toBe(2);
    expect(waiting.body.addresses.map((a) => [a.email, a.state, a.checkedAt, a.breachCount])).toEqual([
      ['bob@example.org', 'pending', null, null],
      ['a.clean@example.org', 'pending', null, null],
    ]);
    expect(waiting.body.queue).toMatchObject({ requestsPerMinute: 1, waiting: 2 });
    // The next check is expected when the budget has room again: a minute (and a second) after the status read.
    expect(Date.parse(waiting.body.queue.nextCheckAt!)).toBe(START + 61_000);

    // The first minute: the earlier-sorted new address (the clean one) is checked; the other still pending.
    await clock.advanceBy(61_000);
    const half = await breaches(service, token);
    expect(half.body).toEqual([]);
    expect(half.pending).toBe(1);
    const halfChecks = await checks(service, token);
    expect(halfChecks.body.addresses.find((a) => a.email === 'a.clean@example.org')).toMatchObject({ state: 'checked', breachCount: 0 });
    expect(halfChecks.body.addresses.find((a) => a.email === 'bob@example.org')).toMatchObject({ state: 'pending', checkedAt: null });

    await clock.advanceBy(61_000);
    const after = await breaches(service, token);
    expect(after.pending).toBe(0);
    expect(idsByEmail(after.body)).toEqual({ 'bob@example.org': ['Canva'] });
  });

  it('with a key HIBP refuses: says so (naming the flag), asks nothing more, invents nothing, logs no key', async () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const { clock, standIn, service } = await start({ key: OTHER_KEY, logger: createLogger({ level: 'debug', destination }) });
    expect(lines.join('')).toMatch(/refused the API key given with --hibp-api-key/);
    expect(service.breachData.summary.join(' ')).toContain('--hibp-api-key');
    expect(service.breachData.summary.join(' ')).toContain('refused');
    const token = await signIn(service, 'alice', ['alice@example.com']);
    await clock.settle();
    await clock.advanceBy(10 * 60_000);

    const answer = await breaches(service, token);
    expect(answer).toMatchObject({ status: 200, source: 'hibp', pending: 1, body: [] });
    const known = await checks(service, token);
    expect(known.body.problem).toMatchObject({ code: 'key-refused' });
    expect(known.body.problem!.detail).toContain('--hibp-api-key');
    expect(known.body.problem!.detail).not.toContain(OTHER_KEY);
    expect(known.body.addresses[0]).toMatchObject({ state: 'pending', checkedAt: null, nextCheckAt: null });
    expect(standIn.requests.map((r) => [r.path, r.status])).toEqual([['subscription/status', 401]]);
    expect(await service.store.getExposures(['alice@example.com'])).toEqual(new Map());
    expect(lines.join('')).not.toContain(OTHER_KEY);
  });

  it('searches a --hibp-domain whole: its addresses are not looked up one by one', async () => {
    const accounts = { ...ACCOUNTS, 'ceo@acme.example': ['Adobe', 'AshleyMadison'], 'intern@acme.example': [], 'ops@acme.example': ['LinkedIn'] };
    const { clock, standIn, service } = await start({ domains: ['acme.example'], accounts });
    const token = await signIn(service, 'acme', ['ceo@acme.example', 'intern@acme.example', 'alice@example.com']);
    await clock.settle();
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);

    const answer = await breaches(service, token, '?includeSensitive=true');
    // The domain owner sees the sensitive breach too (domain search is for verified owners).
    expect(idsByEmail(answer.body)).toEqual({ 'ceo@acme.example': ['Adobe', 'AshleyMadison'], 'alice@example.com': ['Adobe', 'LinkedIn'] });
    const known = await checks(service, token);
    expect(known.body.addresses.map((a) => [a.email, a.viaDomainSearch, a.breachCount])).toEqual([
      ['ceo@acme.example', true, 2],
      ['intern@acme.example', true, 0],
      ['alice@example.com', false, 2],
    ]);
    const paths = standIn.requests.map((r) => r.path);
    expect(paths.filter((p) => p.startsWith('breacheddomain/'))).toEqual(['breacheddomain/acme.example']);
    expect(paths.filter((p) => p.includes('acme.example') && p.startsWith('breachedaccount/'))).toEqual([]);
  });

  it('looks the addresses of a domain HIBP refuses to search (not verified on the key) up one by one', async () => {
    const accounts = { ...ACCOUNTS, 'ceo@other.example': ['Adobe'] };
    const { clock, standIn, service } = await start({ domains: ['other.example'], accounts });
    const token = await signIn(service, 'other', ['ceo@other.example']);
    await clock.settle();
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
    expect(idsByEmail((await breaches(service, token)).body)).toEqual({ 'ceo@other.example': ['Adobe'] });
    expect(standIn.requests.map((r) => [r.path, r.status]).slice(1)).toEqual([
      ['breacheddomain/other.example', 403],
      ['breachedaccount/ceo%40other.example?truncateResponse=true', 200],
    ]);
    const known = await checks(service, token);
    expect(known.body.problem).toBeNull();
    expect(known.body.addresses[0]).toMatchObject({ state: 'checked', viaDomainSearch: false });
  });

  it('carries stealer logs when the subscription includes them', async () => {
    const { clock, standIn, service } = await start({ stealerLogs: true, stealer: { 'alice@example.com': ['spotify.com', 'netflix.com'] } });
    const token = await signIn(service, 'alice', ['alice@example.com', 'clean@example.net']);
    await clock.settle();
    await clock.runUntil(
      async () => (await checks(service, token)).body.stealerLogs.entries.length > 0 && standIn.requests.filter((r) => r.path.startsWith('stealerlogsbyemail/')).length === 2,
      5 * 60_000,
    );
    const known = await checks(service, token);
    expect(known.body.stealerLogs.available).toBe(true);
    expect(known.body.stealerLogs.entries).toEqual([{ email: 'alice@example.com', domains: ['netflix.com', 'spotify.com'], checkedAt: expect.any(String) }]);
  });

  it('says how many stealer-log searches are still to run once every address is checked (they run after the account searches)', async () => {
    // Three requests a minute: the status read and the two account searches take the first one.
    const { clock, standIn, service } = await start({ rpm: 3, stealerLogs: true, stealer: { 'alice@example.com': ['netflix.com'] } });
    const token = await signIn(service, 'alice', ['alice@example.com', 'clean@example.net']);
    await clock.settle();
    await clock.runUntil(async () => (await checks(service, token)).pending === 0, 5 * 60_000);
    const checked = await checks(service, token);
    expect(standIn.requests.filter((r) => r.path.startsWith('stealerlogsbyemail/'))).toHaveLength(0);
    expect(checked.body.stealerLogs).toEqual({ available: true, pending: 2, entries: [] });

    await clock.runUntil(async () => (await checks(service, token)).body.stealerLogs.pending === 0, 5 * 60_000);
    const searched = await checks(service, token);
    expect(searched.body.stealerLogs).toEqual({ available: true, pending: 0, entries: [{ email: 'alice@example.com', domains: ['netflix.com'], checkedAt: expect.any(String) }] });
  });

  it('without a key and without --demo: says there is no source, invents nothing, every address stays pending', async () => {
    const clock = new SimulatedClock(START, 0);
    const service = await startAgainst(undefined, clock, { dataDir: tempDir('hibp-none-', dirs), demo: false, catalogFile: HIBP_FIXTURE_CATALOG });
    running.service = service;
    expect(service.breachData.kind).toBe('none');
    expect(service.breachData.summary[0]).toContain('--hibp-api-key');
    const token = await signIn(service, 'alice', ['alice@example.com', 'alice.work@example.com']);
    const answer = await breaches(service, token, '?includeSensitive=true');
    expect(answer).toMatchObject({ status: 200, source: 'none', pending: 2, body: [] });
    const minted = await fetch(`${service.url}/__dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub: 'alice', scope: `openid ${MONITOR_SCOPE}` }),
    });
    const monitor = await fetch(service.url + FIREFOX_API_PREFIX + '/user/breaches', { headers: { authorization: `Bearer ${((await minted.json()) as { access_token: string }).access_token}` } });
    expect(await monitor.json()).toEqual([]);
    expect([monitor.headers.get(BreachDataHeaders.source), monitor.headers.get(BreachDataHeaders.pending)]).toEqual(['none', '2']);
    const known = await checks(service, token);
    expect(known.body).toMatchObject({ source: 'none', attribution: null, problem: { code: 'no-source' } });
    expect(known.body.addresses.every((a) => a.state === 'pending' && a.breachCount === null)).toBe(true);
    expect(await service.store.getExposures(['alice@example.com', 'alice.work@example.com'])).toEqual(new Map());
  });

  it('with --demo: every answer carrying exposures says the data is invented', async () => {
    const service = await startAgainst(undefined, undefined, { dataDir: tempDir('hibp-demo-', dirs), demo: true });
    running.service = service;
    const token = await signIn(service, 'alice', ['alice@example.com']);
    const answer = await breaches(service, token);
    expect(answer).toMatchObject({ status: 200, source: 'demo', pending: 0 });
    expect(answer.body.length).toBeGreaterThan(0);
    expect(await checks(service, token)).toMatchObject({ source: 'demo', pending: 0, body: { source: 'demo', attribution: null } });
  });

  it("with --demo over Have I Been Pwned's catalog file: invented exposures, the catalog credited", async () => {
    const service = await startAgainst(undefined, undefined, { dataDir: tempDir('hibp-demo-file-', dirs), demo: true, catalogFile: HIBP_FIXTURE_CATALOG });
    running.service = service;
    const token = await signIn(service, 'alice', ['alice@example.com']);
    expect(await breaches(service, token)).toMatchObject({ status: 200, source: 'demo', pending: 0 });
    expect(await checks(service, token)).toMatchObject({ source: 'demo', body: { source: 'demo', attribution: 'Have I Been Pwned' } });
  });
});
