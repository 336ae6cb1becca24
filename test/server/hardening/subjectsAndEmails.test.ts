// Per-subject data and the token's email: every subject string behaves the same, and only a
// verified, well-formed email claim becomes a monitored address.
import { describe, expect, it } from 'vitest';
import { useDevService } from '../../support/useDevService.ts';

const running = useDevService();

async function api(method: string, pathname: string, token: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(running.service.apiBaseUrl + pathname, { method, headers: { authorization: `Bearer ${token}` } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const mint = (options: { sub: string; email?: string; emailVerified?: boolean }) => running.service.identity!.mintAccessToken(options);

describe('awkward subject names', () => {
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'isPrototypeOf', '__defineGetter__'])('%s is an ordinary subject', async (sub) => {
    const token = await mint({ sub, email: `${sub.replace(/_/g, 'u')}@example.com` });
    const created = await api('POST', '/user', token);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toEqual({ emails: [`${sub.replace(/_/g, 'u').toLowerCase()}@example.com`] });
    const list = await api('GET', '/user/breaches', token);
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
  });
});

describe('the token email', () => {
  it('is monitored when email_verified is true', async () => {
    const created = await api('POST', '/user', await mint({ sub: 'verified-sub', email: 'verified@example.com', emailVerified: true }));
    expect(created.body).toEqual({ emails: ['verified@example.com'] });
  });

  it("is ignored when email_verified is false: eve's token naming alice's address monitors nothing of alice", async () => {
    const token = await mint({ sub: 'eve', email: 'alice@example.com', emailVerified: false });
    expect((await api('POST', '/user', token)).body).toEqual({ emails: [] });
    expect((await api('GET', '/user/breaches', token)).body).toEqual([]);
  });

  it.each([
    ['not an address', 'not-an-email'],
    ['10 KB long', 'a'.repeat(10 * 1024) + '@example.com'],
  ])('is ignored when it is %s', async (_name, email) => {
    const token = await mint({ sub: `odd-${email.length}`, email, emailVerified: true });
    expect((await api('POST', '/user', token)).body).toEqual({ emails: [] });
  });
});
