// The newer Monitor contract (`/api/firefox/v1`, CONTRACT.md "The newer Monitor contract"):
// scope check, item shape, the domain filter only, sensitive never, no caching, one-way
// resolutions of two slugs, `{code, message}` errors, no `POST /user`, and the same store as
// `/api/v1` (what one mount resolves, the other reports). Faults come from the development
// surface (`POST /__dev/faults`).
import { beforeAll, describe, expect, it } from 'vitest';
import type { FIREFOX_ERROR_CODES } from '../../shared/api/index.ts';
import { FIREFOX_API_PREFIX, FirefoxError, FirefoxUserBreachList, MONITOR_SCOPE, type Breach, type FirefoxUserBreach } from '../../shared/api/index.ts';
import { stateOf, type HttpResult, type TestUser, unique, useClient } from './client.ts';

const client = useClient();
const MONITOR_TOKEN_SCOPE = `openid email ${MONITOR_SCOPE}`;

function ff(method: string, path: string, options: { token?: string; body?: unknown; rawBody?: string; contentType?: string | null; headers?: Record<string, string> } = {}): Promise<HttpResult> {
  return client.request(method, client.target.origin + FIREFOX_API_PREFIX + path, options);
}

/** Every error of this contract: its status, `{code, message}`, JSON, never cached. */
function expectError(result: HttpResult, status: number, code: (typeof FIREFOX_ERROR_CODES)[number]): FirefoxError {
  expect(result.status, result.text).toBe(status);
  expect(result.headers.get('content-type') ?? '').toMatch(/^application\/json/i);
  expect(result.headers.get('cache-control')).toBe('private, no-store');
  const error = FirefoxError.parse(result.json);
  expect(Object.keys(result.json as object).sort()).toEqual(['code', 'message']);
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

async function listOk(token: string, query = ''): Promise<FirefoxUserBreach[]> {
  const result = await ff('GET', '/user/breaches' + (query ? `?${query}` : ''), { token });
  expect(result.status, result.text).toBe(200);
  expect(result.headers.get('cache-control')).toBe('private, no-store');
  expect(result.headers.get('etag')).toBeNull();
  const items = FirefoxUserBreachList.parse(result.json);
  for (const item of items as unknown as Record<string, unknown>[]) expect(Object.keys(item).sort()).toEqual(['breachedAccounts', 'id']);
  return items;
}

/** A user known to both mounts (created through `/api/v1`), with a token carrying the Monitor scope. */
async function monitorUser(exposures: (emails: string[]) => Record<string, string[]>, emails = 2): Promise<TestUser & { monitorToken: string }> {
  const user = await client.newUser({ emails });
  for (const [email, ids] of Object.entries(exposures(user.emails))) await client.putExposures(email, ids);
  const monitorToken = await client.token(user.sub, { email: user.emails[0]!, scope: MONITOR_TOKEN_SCOPE });
  return { ...user, monitorToken };
}

let withBoth: Breach;
let passwordsOnly: Breach;
let emailOnly: Breach;
let neither: Breach;
let sensitive: Breach;
let domainA: string;

beforeAll(async () => {
  domainA = `${unique('site')}.example`;
  withBoth = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords', 'Usernames'], breachDate: '2023-01-01', domain: domainA });
  passwordsOnly = await client.addBreach({ dataClasses: ['Passwords', 'Usernames'], breachDate: '2022-01-01' });
  emailOnly = await client.addBreach({ dataClasses: ['Email addresses', 'Phone numbers'], breachDate: '2021-01-01', domain: domainA.toUpperCase() });
  neither = await client.addBreach({ dataClasses: ['IP addresses', 'Usernames'], breachDate: '2020-01-01' });
  sensitive = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords'], breachDate: '2019-01-01', isSensitive: true });
});

describe('newer contract: authentication and scope', () => {
  it('answers 401 token-invalid with a challenge when there is no token or a malformed one', async () => {
    for (const path of ['/user/breaches']) {
      const none = await ff('GET', path);
      expectError(none, 401, 'token-invalid');
      expect(none.headers.get('www-authenticate') ?? '').toMatch(/^Bearer /);
      expectError(await ff('GET', path, { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 401, 'token-invalid');
      const forged = await ff('GET', path, { token: 'not.a.token' });
      expectError(forged, 401, 'token-invalid');
      expect(forged.headers.get('www-authenticate') ?? '').toContain('error="invalid_token"');
    }
    expectError(await ff('POST', '/user/breaches/resolutions', { body: [{ breachId: withBoth.id, dataClasses: ['passwords'] }] }), 401, 'token-invalid');
  });

  it('answers 401 token-invalid for an expired token', async () => {
    const user = await client.newUser();
    const token = await client.token(user.sub, { email: user.emails[0]!, scope: MONITOR_TOKEN_SCOPE, expiresIn: 1 });
    // Expiry is checked with a few seconds of tolerance; wait on the clock, not a fixed sleep.
    const deadline = Date.now() + 15_000;
    let result = await ff('GET', '/user/breaches', { token });
    while (result.status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      result = await ff('GET', '/user/breaches', { token });
    }
    expectError(result, 401, 'token-invalid');
  });

  it('answers 403 missing-scope to a valid token without the Monitor scope, naming the scope', async () => {
    const user = await client.newUser();
    const token = await client.token(user.sub, { email: user.emails[0]! });
    const result = await ff('GET', '/user/breaches', { token });
    const error = expectError(result, 403, 'missing-scope');
    expect(error.message).toContain(MONITOR_SCOPE);
    expect(result.headers.get('www-authenticate') ?? '').toContain('error="insufficient_scope"');
    expectError(await ff('POST', '/user/breaches/resolutions', { token, body: [{ breachId: withBoth.id, dataClasses: ['passwords'] }] }), 403, 'missing-scope');
  });

  it('answers 403 no-monitor-account to a person who never signed up, and offers no POST /user', async () => {
    const user = await client.newUser({ skipCreate: true });
    const token = await client.token(user.sub, { email: user.emails[0]!, scope: MONITOR_TOKEN_SCOPE });
    expectError(await ff('GET', '/user/breaches', { token }), 403, 'no-monitor-account');
    expectError(await ff('POST', '/user/breaches/resolutions', { token, body: [{ breachId: withBoth.id, dataClasses: ['passwords'] }] }), 403, 'no-monitor-account');
    expectError(await ff('POST', '/user', { token }), 404, 'not-found');
    // Still not signed up: the mount created nothing.
    expectError(await ff('GET', '/user/breaches', { token }), 403, 'no-monitor-account');
    // Signing up (here: the older contract's POST /user) is what opens the newer mount.
    expect((await client.api('POST', '/user', { token: user.token })).status).toBe(201);
    expect(await listOk(token)).toEqual([]);
  });

  it('answers 401 token-invalid once the account is disabled at the identity provider', async () => {
    const user = await monitorUser(() => ({}));
    await client.putAccount(user.sub, user.emails, true);
    expectError(await ff('GET', '/user/breaches', { token: user.monitorToken }), 401, 'token-invalid');
  });
});

describe('newer contract: GET /user/breaches', () => {
  it('lists {id, breachedAccounts} for breaches that leaked passwords or email addresses, never sensitive ones, in the older order', async () => {
    const user = await monitorUser(([a, b]) => ({ [a!]: [withBoth.id, passwordsOnly.id, neither.id, sensitive.id], [b!]: [withBoth.id, emailOnly.id] }));
    const items = await listOk(user.monitorToken);
    expect(items.map((item) => item.id)).toEqual([withBoth.id, passwordsOnly.id, emailOnly.id]);
    expect(items[0]!.breachedAccounts).toEqual(user.emails.map((email) => ({ email, resolvedDataClasses: [] })));
    // Same breaches and order as the older mount shows without sensitive ones (minus the one that leaked neither class).
    const older = await client.list(user.token);
    expect(older.items.map((item) => item.breach.id).filter((id) => id !== neither.id)).toEqual(items.map((item) => item.id));
  });

  it('answers the same bytes again (nothing cached, nothing conditional) and ignores If-None-Match', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id] }));
    const first = await ff('GET', '/user/breaches', { token: user.monitorToken });
    const second = await ff('GET', '/user/breaches', { token: user.monitorToken, headers: { 'if-none-match': '*' } });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
  });

  it('filters by domain (case-insensitive host match, as the older mount) and nothing else', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id, emailOnly.id, passwordsOnly.id] }));
    expect((await listOk(user.monitorToken, `domain=${encodeURIComponent(domainA)}`)).map((item) => item.id)).toEqual([withBoth.id, emailOnly.id]);
    expect(await listOk(user.monitorToken, 'domain=nowhere.example')).toEqual([]);
    const older = await client.list(user.token, `domain=${encodeURIComponent(domainA)}`);
    expect(older.items.map((item) => item.breach.id)).toEqual([withBoth.id, emailOnly.id]);
  });

  it('answers 400 invalid-request to an empty or repeated domain and to the older filters', async () => {
    const user = await monitorUser(() => ({}));
    for (const query of ['domain=', `domain=a.example&domain=b.example`, 'includeSensitive=true', 'dataClasses=passwords', 'unresolvedDataClasses=passwords']) {
      expectError(await ff('GET', `/user/breaches?${query}`, { token: user.monitorToken }), 400, 'invalid-request');
    }
  });
});

describe('newer contract: resolutions', () => {
  it('resolves passwords for every affected email; the older mount reports it as the breach spells it', async () => {
    const user = await monitorUser(([a, b]) => ({ [a!]: [withBoth.id], [b!]: [withBoth.id] }));
    const result = await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body: [{ breachId: withBoth.id, dataClasses: ['passwords'] }] });
    expect(result.status, result.text).toBe(204);
    expect(result.text).toBe('');
    expect(result.headers.get('cache-control')).toBe('private, no-store');
    const items = await listOk(user.monitorToken);
    expect(items[0]!.breachedAccounts.map((account) => account.resolvedDataClasses)).toEqual([['passwords'], ['passwords']]);
    const older = await client.listOf(user.token, [withBoth.id]);
    for (const email of user.emails) expect(Object.keys(stateOf(older, withBoth.id, email) ?? {})).toEqual(['Passwords']);
  });

  it('reports what the older mount resolved, as slugs, and only the two classes it serves', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id] }));
    await client.resolveOk(user.token, [{ breachId: withBoth.id, dataClasses: ['Email addresses', 'Usernames'], resolved: true }]);
    expect((await listOk(user.monitorToken))[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual(['email-addresses']);
    // And unresolving through the older mount shows through the newer one too.
    await client.resolveOk(user.token, [{ breachId: withBoth.id, dataClasses: ['Email addresses'], resolved: false }]);
    expect((await listOk(user.monitorToken))[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual([]);
  });

  it('is idempotent, merges a breach named twice, and applies every item or none', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id, emailOnly.id] }));
    const body = [
      { breachId: withBoth.id, dataClasses: ['passwords'] },
      { breachId: withBoth.id, dataClasses: ['email-addresses'] },
    ];
    for (let i = 0; i < 2; i += 1) expect((await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body })).status).toBe(204);
    expect((await listOk(user.monitorToken)).find((item) => item.id === withBoth.id)!.breachedAccounts[0]!.resolvedDataClasses).toEqual(['email-addresses', 'passwords']);
    // One bad item (emailOnly never leaked passwords) and nothing of the batch is applied.
    const mixed = await ff('POST', '/user/breaches/resolutions', {
      token: user.monitorToken,
      body: [
        { breachId: emailOnly.id, dataClasses: ['email-addresses'] },
        { breachId: emailOnly.id, dataClasses: ['passwords'] },
      ],
    });
    expectError(mixed, 400, 'invalid-request');
    expect((await listOk(user.monitorToken)).find((item) => item.id === emailOnly.id)!.breachedAccounts[0]!.resolvedDataClasses).toEqual([]);
  });

  it('answers 400 invalid-request to anything but one-way items of the two slugs', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id] }));
    const bad: unknown[] = [
      [],
      {},
      [{ breachId: withBoth.id }],
      [{ breachId: withBoth.id, dataClasses: [] }],
      [{ breachId: withBoth.id, dataClasses: ['Passwords'] }],
      [{ breachId: withBoth.id, dataClasses: ['usernames'] }],
      [{ breachId: withBoth.id, dataClasses: ['passwords'], resolved: true }],
      [{ breachId: withBoth.id, dataClasses: ['passwords'], resolved: false }],
      [{ breachId: withBoth.id, dataClasses: ['passwords'], emails: [user.emails[0]] }],
      [{ breachId: '', dataClasses: ['passwords'] }],
    ];
    for (const body of bad) expectError(await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body }), 400, 'invalid-request');
    expectError(await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, rawBody: '[{', contentType: 'application/json' }), 400, 'invalid-request');
    expectError(await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, rawBody: '[]', contentType: 'text/plain' }), 415, 'invalid-request');
    expect((await listOk(user.monitorToken))[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual([]);
  });

  it('answers 404 not-found alike for an unknown breach and one that affects nobody monitored', async () => {
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id] }));
    const unknown = expectError(await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body: [{ breachId: unique('no-such'), dataClasses: ['passwords'] }] }), 404, 'not-found');
    const elsewhere = expectError(await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body: [{ breachId: passwordsOnly.id, dataClasses: ['passwords'] }] }), 404, 'not-found');
    expect(unknown.message).toBe(elsewhere.message);
  });
});

describe('newer contract: other answers', () => {
  it('answers 404 not-found for paths it does not have and invalid-request for a wrong method', async () => {
    const user = await monitorUser(() => ({}));
    expectError(await ff('GET', '/user/nothing', { token: user.monitorToken }), 404, 'not-found');
    expectError(await ff('GET', '', { token: user.monitorToken }), 404, 'not-found');
    const wrong = await ff('DELETE', '/user/breaches', { token: user.monitorToken });
    expectError(wrong, 405, 'invalid-request');
    expect(wrong.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 503 unavailable and 429 rate-limited with Retry-After for the next N requests when the development surface says so', async () => {
    if (client.target.external) return; // needs this service's development surface
    const user = await monitorUser(([a]) => ({ [a!]: [withBoth.id] }));
    // A fault plan is kept and counted by the instance that was told it.
    await client.onOneInstance(async () => {
      await client.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 2, retryAfter: 7 });
      for (let i = 0; i < 2; i += 1) {
        const result = await ff('GET', '/user/breaches', { token: user.monitorToken });
        expectError(result, 503, 'unavailable');
        expect(result.headers.get('retry-after')).toBe('7');
      }
      expect((await listOk(user.monitorToken)).map((item) => item.id)).toEqual([withBoth.id]);

      await client.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 429, count: 1 });
      // The older mount is not affected.
      await client.list(user.token);
      const limited = await ff('POST', '/user/breaches/resolutions', { token: user.monitorToken, body: [{ breachId: withBoth.id, dataClasses: ['passwords'] }] });
      expectError(limited, 429, 'rate-limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Refused, so nothing changed.
      expect((await listOk(user.monitorToken))[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual([]);

      await client.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 5 });
      await client.dev('POST', '/__dev/faults', { mount: 'firefox-v1', status: 503, count: 0 });
      await listOk(user.monitorToken);
    });
  });

  it('refuses a malformed fault request with a clear 400', async () => {
    if (client.target.external) return;
    for (const body of [
      { mount: 'v1', status: 503, count: 1 },
      { mount: 'firefox-v1', status: 500, count: 1 },
      { mount: 'firefox-v1', status: 503, count: -1 },
      { mount: 'firefox-v1', status: 503 },
    ]) {
      const result = await client.origin('POST', '/__dev/faults', { body });
      expect(result.status, JSON.stringify(body)).toBe(400);
    }
  });
});
