// POST /user and authorization (403) of the breach-alert API.
import { describe, expect, it } from 'vitest';
import { expectProblem, parseMonitoringUser, unique, uniqueEmail, useClient } from './client.ts';

const client = useClient();

describe('POST /user', () => {
  it('creates the monitoring user (201), then reports it exists (202), both with the monitored emails', async () => {
    const sub = unique('sub');
    const emails = [uniqueEmail('a'), uniqueEmail('b')];
    await client.putAccount(sub, emails);
    for (const email of emails) await client.putExposures(email, []);
    const token = await client.token(sub, { email: emails[0]! });

    const first = await client.api('POST', '/user', { token });
    expect(first.status, first.text).toBe(201);
    expect(first.headers.get('content-type') ?? '').toMatch(/^application\/json/i);
    expect([...parseMonitoringUser(first).emails].sort()).toEqual([...emails].sort());

    const second = await client.api('POST', '/user', { token });
    expect(second.status, second.text).toBe(202);
    expect([...parseMonitoringUser(second).emails].sort()).toEqual([...emails].sort());

    // A second device (another token for the same subject) sees the same user.
    const other = await client.token(sub);
    const third = await client.api('POST', '/user', { token: other });
    expect(third.status).toBe(202);
  });

  it('seeds the monitored emails from the token email when the account names none (reference decision)', async () => {
    const sub = unique('sub');
    const email = uniqueEmail();
    await client.putExposures(email, []);
    const token = await client.token(sub, { email });
    const created = await client.api('POST', '/user', { token });
    expect(created.status, created.text).toBe(201);
    expect(parseMonitoringUser(created).emails).toEqual([email]);
  });

  it('needs no request body, and ignores one', async () => {
    const sub = unique('sub');
    await client.putAccount(sub, []);
    const token = await client.token(sub);
    const created = await client.api('POST', '/user', { token, body: { anything: true } });
    expect(created.status, created.text).toBe(201);
    expect(parseMonitoringUser(created).emails).toEqual([]);
  });

  it('answers 401 with a Bearer challenge without a token', async () => {
    const result = await client.api('POST', '/user');
    expectProblem(result, 401);
    expect(result.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b/i);
  });

  it('answers 401 with error="invalid_token" for a garbage token', async () => {
    const result = await client.api('POST', '/user', { token: 'not-a-jwt' });
    expectProblem(result, 401);
    expect(result.headers.get('www-authenticate') ?? '').toMatch(/^Bearer\b.*error="invalid_token"/i);
  });

  it('answers 403 when the identity account no longer exists', async () => {
    const sub = unique('sub');
    const email = uniqueEmail();
    await client.putAccount(sub, [email], true);
    await client.putExposures(email, []);
    const token = await client.token(sub, { email });
    expectProblem(await client.api('POST', '/user', { token }), 403);
  });

  it('answers 403 on every endpoint once an existing user’s account is deleted, and recovers when it is restored', async () => {
    const breach = await client.addBreach();
    const user = await client.newUser({ emails: 1 });
    await client.putExposures(user.emails[0]!, [breach.id]);
    const item = { breachId: breach.id, dataClasses: ['Passwords'], resolved: true };

    await client.putAccount(user.sub, user.emails, true);
    expectProblem(await client.api('POST', '/user', { token: user.token }), 403);
    expectProblem(await client.api('GET', '/user/breaches', { token: user.token }), 403);
    expectProblem(await client.resolve(user.token, [item]), 403);

    await client.putAccount(user.sub, user.emails, false);
    expect((await client.api('POST', '/user', { token: user.token })).status).toBe(202);
    const { items } = await client.list(user.token);
    expect(items.map((i) => i.breach.id)).toEqual([breach.id]);
    // Nothing was recorded while the account was deleted.
    expect(items[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual({});
  });
});

describe('before POST /user', () => {
  it('GET /user/breaches answers 403', async () => {
    const user = await client.newUser({ skipCreate: true });
    const result = await client.api('GET', '/user/breaches', { token: user.token });
    const problem = expectProblem(result, 403);
    expect(problem.detail ?? '').toMatch(/POST \/user/);
  });

  it('POST /user/breaches/resolutions answers 403 and records nothing', async () => {
    const breach = await client.addBreach();
    const user = await client.newUser({ skipCreate: true });
    await client.putExposures(user.emails[0]!, [breach.id]);
    const result = await client.resolve(user.token, [{ breachId: breach.id, dataClasses: ['Passwords'], resolved: true }]);
    expectProblem(result, 403);

    expect((await client.api('POST', '/user', { token: user.token })).status).toBe(201);
    const { items } = await client.list(user.token);
    expect(items).toHaveLength(1);
    expect(items[0]!.breachedAccounts[0]!.resolvedDataClasses).toEqual({});
  });
});
