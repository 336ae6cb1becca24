// The HTTP surface around the endpoints: methods (405 + Allow), unknown paths (404 problem),
// HEAD, and request-targets that fetch would normalize away (sent raw).
import { describe, expect, it } from 'vitest';
import { Problem } from '../../shared/api/index.ts';
import { expectProblem, unique, useClient } from './client.ts';
import { rawExchange, type RawResponse, write } from './raw.ts';

const client = useClient();

async function rawRequest(method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse | undefined> {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${new URL(client.target.origin).host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), 'Connection: close', '', ''];
  const { responses } = await rawExchange(client.target.origin, (socket) => write(socket, lines.join('\r\n')), { expect: 1, timeoutMs: 3000 });
  return responses[0];
}

function expectRawProblem(response: RawResponse | undefined, accept: (status: number) => boolean): void {
  expect(response, 'an answer').toBeDefined();
  expect(accept(response!.status), `status ${response!.status}: ${response!.body}`).toBe(true);
  expect(response!.headers['content-type'] ?? '').toMatch(/^application\/problem\+json/i);
  expect(Problem.parse(JSON.parse(response!.body)).status).toBe(response!.status);
}

describe('HTTP surface: methods and paths', () => {
  it.each([
    ['GET', '/user', 'POST'],
    ['PUT', '/user', 'POST'],
    ['DELETE', '/user', 'POST'],
    ['POST', '/user/breaches', 'GET'],
    ['DELETE', '/user/breaches', 'GET'],
    ['GET', '/user/breaches/resolutions', 'POST'],
    ['PUT', '/user/breaches/resolutions', 'POST'],
    ['PATCH', '/user/breaches/resolutions', 'POST'],
  ])('%s %s answers 405 with Allow', async (method, path, allowed) => {
    const user = await client.newUser();
    const result = await client.api(method, path, { token: user.token });
    expectProblem(result, 405);
    const allow = (result.headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
    expect(allow).toContain(allowed);
    expect(allow).not.toContain(method);
  });

  it.each(['/users', '/user/breach', '/user/breaches/resolution', '/user/breaches/x/y', '/user/', '/'])('unknown API path %s answers 404 problem', async (path) => {
    const user = await client.newUser();
    expectProblem(await client.api('GET', path, { token: user.token }), 404);
  });

  it('an unknown path outside the API answers 404 problem', async () => {
    expectProblem(await client.origin('GET', `/${unique('nothing')}`), 404);
  });

  it('HEAD /user/breaches answers like GET, without a body', async () => {
    const user = await client.newUser();
    const result = await client.api('HEAD', '/user/breaches', { token: user.token });
    expect(result.status).toBe(200);
    expect(result.headers.get('etag')).toBeTruthy();
    expect(result.text).toBe('');
  });

  it('a query string does not change routing', async () => {
    const user = await client.newUser();
    expect((await client.api('POST', '/user?x=1', { token: user.token })).status).toBe(202);
  });
});

describe('HTTP surface: raw request-targets', () => {
  it('the API answers a raw origin-form request (control)', async () => {
    const path = new URL(client.target.apiBase).pathname;
    expectRawProblem(await rawRequest('POST', `${path}/user`), (status) => status === 401);
  });

  // BUG (server/app.ts:107): `new URL(req.url, base)` throws for a target such as `//[`, and the
  // TypeError becomes a 500 instead of a 400/404.
  it('a request-target that is not a parsable path answers 4xx, never 500', async () => {
    for (const target of ['//[', '//[::1', '//a:b:c/']) {
      expectRawProblem(await rawRequest('GET', target), (status) => status >= 400 && status < 500);
    }
  });

  // BUG (server/app.ts:107): a target starting with `//` is parsed as a network-path reference,
  // so `//anything/api/v1/user` is routed to `/api/v1/user` (path confusion) instead of 404.
  it('a path starting with // is not re-interpreted as host + path', async () => {
    const path = new URL(client.target.apiBase).pathname;
    expectRawProblem(await rawRequest('POST', `//x${path}/user`), (status) => status === 404);
  });
});

describe('development surface robustness', () => {
  // BUG (server/dev/routes.ts:40): `decodeURIComponent` throws URIError on a malformed escape,
  // which becomes a 500.
  it('a malformed percent-escape in /__dev/accounts/{sub} answers 4xx, never 500', async () => {
    const result = await client.origin('PUT', '/__dev/accounts/%E0%A4%A', { body: { emails: [] } });
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
  });
});
