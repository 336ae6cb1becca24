// What a hostile caller on the same machine or with its own valid token can do: a foreign
// Host (DNS rebinding) is refused before routing, an unverified email claim monitors nothing,
// and subject names that are also JavaScript property names are ordinary subjects.
import { describe, expect, it } from 'vitest';
import { Problem } from '../../shared/api/index.ts';
import { unique, uniqueEmail, useClient } from './client.ts';
import { rawExchange, write } from './raw.ts';

const client = useClient();

async function withHost(method: string, target: string, host: string, body = '') {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  if (body) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`);
  const { responses } = await rawExchange(client.target.origin, (socket) => write(socket, lines.join('\r\n') + '\r\n\r\n' + body), { expect: 1, timeoutMs: 5000 });
  expect(responses[0], `an answer to ${method} ${target}`).toBeDefined();
  return responses[0]!;
}

describe('the Host rule (DNS rebinding)', () => {
  const api = () => new URL(client.target.apiBase).pathname;
  const targets: [string, () => string, string?][] = [
    ['POST', () => '/__dev/token', JSON.stringify({ sub: 'alice', email: 'alice@example.com' })],
    ['GET', () => `${api()}/user/breaches`],
    ['POST', () => `${api()}/user`],
    ['GET', () => '/oidc/.well-known/openid-configuration'],
    ['GET', () => '/v2/node?key=dev-key&nodes=Adobe&property=->*'],
    ['GET', () => '/'],
  ];

  it.each(targets)('%s %s under a foreign Host answers 421 problem+json, before any routing', async (method, target, body) => {
    const port = new URL(client.target.origin).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `localhost.evil.example:${port}`]) {
      const answer = await withHost(method, target(), host, body);
      expect(answer.status, `${host}: ${answer.body}`).toBe(421);
      expect(answer.headers['content-type'] ?? '').toMatch(/^application\/problem\+json/i);
      expect(Problem.parse(JSON.parse(answer.body)).status).toBe(421);
      expect(answer.body).not.toMatch(/access_token/);
    }
  });

  it('answers under its own origin (control)', async () => {
    const answer = await withHost('GET', '/', new URL(client.target.origin).host);
    expect(answer.status).toBe(200);
  });
});

describe('the email_verified rule', () => {
  it("a signed token naming someone else's address with email_verified false sees none of that address's breaches", async () => {
    const breach = await client.addBreach();
    const victim = await client.newUser({ emails: 1 });
    await client.putExposures(victim.emails[0]!, [breach.id]);
    expect((await client.listOf(victim.token, [breach.id])).map((item) => item.breach.id)).toEqual([breach.id]);

    const eve = await client.token(unique('eve'), { email: victim.emails[0]!, emailVerified: false });
    const created = await client.api('POST', '/user', { token: eve });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({ emails: [] });
    const { items } = await client.list(eve, 'includeSensitive=true');
    expect(items).toEqual([]);
    const resolve = await client.resolve(eve, [{ breachId: breach.id, dataClasses: ['Passwords'], resolved: true }]);
    expect(resolve.status).toBe(404);
  });

  it('the same claim with email_verified true is monitored (control)', async () => {
    const email = uniqueEmail();
    const token = await client.token(unique('verified'), { email, emailVerified: true });
    const created = await client.api('POST', '/user', { token });
    expect(created.json).toEqual({ emails: [email] });
  });
});

describe('awkward subject names', () => {
  // No account record is ever set for these subjects, so the service takes their monitored
  // emails from the token and its configured extras: the lookup that once fell through to
  // Object.prototype. (Extras may be configured for a subject, hence toContain.)
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'])('%s is an ordinary subject on every endpoint', async (sub) => {
    const breach = await client.addBreach();
    const email = uniqueEmail();
    await client.putExposures(email, [breach.id]);
    const token = await client.token(sub, { email });
    const created = await client.api('POST', '/user', { token });
    expect([201, 202], created.text).toContain(created.status);
    expect((created.json as { emails: string[] }).emails).toContain(email);
    expect((await client.listOf(token, [breach.id])).map((item) => item.breach.id)).toEqual([breach.id]);
    await client.resolveOk(token, [{ breachId: breach.id, dataClasses: ['Passwords'], resolved: true }]);
  });
});
