// Several instances sharing one database (CONFORMANCE_INSTANCES, via `npm run test:conformance`):
// what one instance did is what every other answers at once. With one instance the same checks
// run against it alone, so the file asserts something in every mode.
import { describe, expect, it } from 'vitest';
import { useClient } from './client.ts';

const client = useClient();

/** The instances in the order the checks use them: a write through the first, reads through the last. */
function firstAndLast(): [string, string] {
  const { origins } = client.target;
  return [origins[0] as string, origins.at(-1) as string];
}

describe('instances sharing one database', () => {
  it('accepts through one instance a token another issued, and a new monitoring user at once', async () => {
    const [first, last] = firstAndLast();
    const breach = await client.addBreach();
    const user = await client.newUser({ exposures: {}, skipCreate: true });
    await client.putExposures(user.emails[0] as string, [breach.id]);
    const created = await client.request('POST', `${first}/api/v1/user`, { token: user.token, pinned: true });
    expect(created.status, created.text).toBe(201);
    const listed = await client.request('GET', `${last}/api/v1/user/breaches`, { token: user.token, pinned: true });
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as { breach: { id: string } }[]).map((item) => item.breach.id)).toEqual([breach.id]);
  });

  it('shows a resolution made through one instance through another at once, with a new ETag', async () => {
    const [first, last] = firstAndLast();
    const breach = await client.addBreach({ dataClasses: ['Email addresses', 'Passwords'] });
    const user = await client.newUser();
    await client.putExposures(user.emails[0] as string, [breach.id]);
    const before = await client.request('GET', `${last}/api/v1/user/breaches`, { token: user.token, pinned: true });
    expect(before.status).toBe(200);
    const etag = before.headers.get('etag');
    expect(etag).toBeTruthy();
    // The reading instance has this answer cached now; the write goes through the other one.
    const resolved = await client.request('POST', `${first}/api/v1/user/breaches/resolutions`, {
      token: user.token,
      pinned: true,
      body: [{ breachId: breach.id, dataClasses: ['Passwords'], resolved: true }],
    });
    expect(resolved.status, resolved.text).toBe(204);
    const after = await client.request('GET', `${last}/api/v1/user/breaches`, { token: user.token, pinned: true, headers: { 'if-none-match': etag as string } });
    expect(after.status, "the cached answer of the reading instance must not survive the other instance's write").toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    const item = (after.json as { breach: { id: string }; breachedAccounts: { resolvedDataClasses: Record<string, unknown> }[] }[]).find((entry) => entry.breach.id === breach.id);
    expect(Object.keys(item?.breachedAccounts[0]?.resolvedDataClasses ?? {})).toEqual(['Passwords']);
  });

  it('answers 403 through every instance once the account is deleted through the development surface', async () => {
    const [, last] = firstAndLast();
    const user = await client.newUser();
    const ok = await client.request('GET', `${last}/api/v1/user/breaches`, { token: user.token, pinned: true });
    expect(ok.status).toBe(200);
    await client.putAccount(user.sub, user.emails, true);
    const gone = await client.request('GET', `${last}/api/v1/user/breaches`, { token: user.token, pinned: true });
    expect(gone.status).toBe(403);
  });
});
