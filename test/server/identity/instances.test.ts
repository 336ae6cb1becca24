// A person signing in against two instances of the service that share one PostgreSQL database,
// as behind a load balancer: every step of the browser's sign-in, the code exchange, the refresh,
// the API call and the revocation may land on either instance.
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import type { RunningService } from '../../../server/app.ts';
import { useTwoInstances } from '../../support/twoInstances.ts';
import { Browser, CALLBACK, formAction, pkcePair } from './harness.ts';

const instances = useTwoInstances('identity-instances-');

/** A browser whose every request goes to the other instance than the one before (same paths, same cookies). */
class AlternatingBrowser extends Browser {
  readonly served: string[] = [];
  #next = 0;
  override request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    if (target.origin === instances.a.url || target.origin === instances.b.url) {
      const instance = [instances.a, instances.b][this.#next++ % 2]!;
      this.served.push(instance === instances.a ? 'a' : 'b');
      target.host = new URL(instance.url).host;
    }
    return super.request(target, init);
  }
}

async function token(instance: RunningService, fields: Record<string, string>) {
  const response = await fetch(`${instance.url}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: instances.a.identity!.clientId, ...fields }).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

describe('signing in across two instances on one PostgreSQL database', () => {
  it('signs in hopping between instances, refreshes on the other, calls the API on either, and a revocation on one holds on both', async () => {
    const idp = instances.a.identity!;
    expect(instances.b.issuer).toBe(instances.a.issuer);
    const browser = new AlternatingBrowser();
    const { verifier, challenge } = pkcePair();
    const start = new URL(`${idp.issuer}/auth`);
    for (const [key, value] of Object.entries({
      client_id: idp.clientId,
      response_type: 'code',
      redirect_uri: CALLBACK,
      scope: 'openid email profile offline_access',
      state: 'st',
      nonce: 'no',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }))
      start.searchParams.set(key, value);

    const login = await browser.follow(await browser.request(start), start, CALLBACK);
    if (!('page' in login)) throw new Error('expected the login page');
    const loginAction = formAction(await login.page.text(), login.url);
    const consent = await browser.follow(await browser.submitForm(loginAction, { email: 'alice@example.com', password: 'correct horse' }), loginAction, CALLBACK);
    if (!('page' in consent)) throw new Error('expected the consent page');
    const consentAction = formAction(await consent.page.text(), consent.url);
    const done = await browser.follow(await browser.submitForm(consentAction, { decision: 'allow' }), consentAction, CALLBACK);
    if (!('callback' in done)) throw new Error(`expected a redirect to the app: ${await done.page.text()}`);
    // Both instances served the interaction: its state lives in the shared database, not in one process.
    expect(new Set(browser.served)).toEqual(new Set(['a', 'b']));

    const exchanged = await token(instances.b, { grant_type: 'authorization_code', code: done.callback.searchParams.get('code')!, code_verifier: verifier, redirect_uri: CALLBACK });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect(decodeJwt(exchanged.body.access_token!)).toMatchObject({ iss: instances.a.issuer, sub: expect.any(String) });

    const bearer = { authorization: `Bearer ${exchanged.body.access_token}` };
    expect((await fetch(`${instances.a.apiBaseUrl}/user`, { method: 'POST', headers: bearer })).status).toBe(201);
    for (const instance of [instances.a, instances.b]) expect((await fetch(`${instance.apiBaseUrl}/user/breaches`, { headers: bearer })).status, instance.url).toBe(200);

    const refreshed = await token(instances.a, { grant_type: 'refresh_token', refresh_token: exchanged.body.refresh_token! });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const current = refreshed.body.refresh_token ?? exchanged.body.refresh_token!;

    const revoked = await fetch(`${instances.b.url}/oidc/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: idp.clientId, token: current, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(revoked.status).toBe(200);
    for (const instance of [instances.a, instances.b]) expect((await token(instance, { grant_type: 'refresh_token', refresh_token: current })).body.error).toBe('invalid_grant');
  });
});
