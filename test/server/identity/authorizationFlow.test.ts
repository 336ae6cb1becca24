import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJwtAccessTokenVerifier } from '../../../server/auth/jwtVerifier.ts';
import { InvalidTokenError } from '../../../server/auth/AccessTokenVerifier.ts';
import { DEMO_USERS } from '../../../server/identity/index.ts';
import { authorizationUrl, Browser, CALLBACK, exchangeCode, formAction, pkcePair, refresh, signIn, startIdentityServer, tokenRequest, type IdentityServer } from './harness.ts';

let server: IdentityServer;
const inactive = new Set<string>();

beforeAll(async () => {
  server = await startIdentityServer({ isAccountActive: (sub) => !inactive.has(sub) });
});

afterAll(async () => {
  await server?.close();
});

function verifier() {
  const { idp } = server;
  return createJwtAccessTokenVerifier({ issuer: idp.issuer, audience: idp.audience, jwksUrl: idp.jwksUri });
}

describe('discovery', () => {
  it('publishes the endpoints under the mount path', async () => {
    const { idp, origin } = server;
    const response = await fetch(`${idp.issuer}/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as Record<string, unknown>;
    expect(document).toMatchObject({
      issuer: `${origin}/oidc`,
      authorization_endpoint: `${origin}/oidc/auth`,
      token_endpoint: `${origin}/oidc/token`,
      jwks_uri: idp.jwksUri,
      revocation_endpoint: `${origin}/oidc/token/revocation`,
      end_session_endpoint: `${origin}/oidc/session/end`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(document.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'offline_access']));
    expect(idp.jwksUri).toBe(`${origin}/oidc/jwks`);
  });

  it('publishes only the public half of the signing key', async () => {
    const jwks = (await (await fetch(server.idp.jwksUri)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('answers 404 outside the mount path', async () => {
    expect((await fetch(`${server.origin}/auth`)).status).toBe(404);
  });
});

describe('minted access tokens', () => {
  it('are accepted by the verifier through the published JWKS', async () => {
    const token = await server.idp.mintAccessToken({ sub: 'alice', email: 'alice@example.com' });
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    await expect(verifier().verify(token)).resolves.toEqual({
      sub: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
      expiresAt: decodeJwt(token).exp,
      scope: 'openid email offline_access',
      clientId: 'breach-monitor-desktop',
    });
  });

  it('honour expiresIn', async () => {
    const token = await server.idp.mintAccessToken({ sub: 'bob', expiresIn: 60 });
    const { exp, iat } = decodeJwt(token);
    expect((exp ?? 0) - (iat ?? 0)).toBe(60);
    const claims = await verifier().verify(token);
    expect(claims).not.toHaveProperty('email');
  });
});

describe('authorization code flow with PKCE', () => {
  it('signs in, issues an API access token and a refresh token, refreshes, and stops after revocation', async () => {
    const { idp } = server;
    const { code, verifier: codeVerifier, callback } = await signIn(idp, 'alice@example.com');
    expect(callback.origin).toBe('http://127.0.0.1:53682');
    expect(callback.searchParams.get('iss')).toBe(idp.issuer);

    const exchanged = await exchangeCode(idp, code, codeVerifier);
    expect(exchanged.status).toBe(200);
    const { access_token: accessToken, refresh_token: refreshToken, id_token: idToken } = exchanged.body;
    expect(exchanged.body.token_type).toBe('Bearer');
    expect(exchanged.body.expires_in).toBeLessThanOrEqual(15 * 60);
    expect(refreshToken).toEqual(expect.any(String));
    expect(decodeJwt(idToken ?? '')).toMatchObject({ sub: 'alice', email: 'alice@example.com', aud: idp.clientId });

    expect(decodeProtectedHeader(accessToken ?? '').typ).toBe('at+jwt');
    expect(decodeJwt(accessToken ?? '')).toMatchObject({ aud: 'urn:breach-monitor:api', iss: idp.issuer });
    const claims = await verifier().verify(accessToken ?? '');
    expect(claims).toMatchObject({ sub: 'alice', email: 'alice@example.com', clientId: 'breach-monitor-desktop' });
    expect(claims.scope?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email', 'offline_access']));

    const refreshed = await refresh(idp, refreshToken ?? '');
    expect(refreshed.status).toBe(200);
    await expect(verifier().verify(refreshed.body.access_token ?? '')).resolves.toMatchObject({ sub: 'alice', email: 'alice@example.com' });
    const rotated = refreshed.body.refresh_token ?? refreshToken ?? '';

    const revocation = await fetch(`${idp.issuer}/token/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: idp.clientId, token: rotated, token_type_hint: 'refresh_token' }).toString(),
    });
    expect(revocation.status).toBe(200);

    const afterRevocation = await refresh(idp, rotated);
    expect(afterRevocation.status).toBe(400);
    expect(afterRevocation.body.error).toBe('invalid_grant');
  });

  it('treats a replayed code as theft: refused, and the tokens it produced are revoked', async () => {
    const { idp } = server;
    const { code, verifier: codeVerifier } = await signIn(idp, 'alice@example.com');
    const first = await exchangeCode(idp, code, codeVerifier);
    expect(first.status).toBe(200);
    const replay = await exchangeCode(idp, code, codeVerifier);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await refresh(idp, first.body.refresh_token ?? '')).body.error).toBe('invalid_grant');
  });

  it('accepts the API audience sent explicitly as a resource indicator', async () => {
    const { idp } = server;
    const { code, verifier: codeVerifier } = await signIn(idp, 'bob@example.com', { extra: { resource: idp.audience } });
    const { body } = await tokenRequest(idp, {
      grant_type: 'authorization_code',
      code,
      code_verifier: codeVerifier,
      redirect_uri: CALLBACK,
      resource: idp.audience,
    });
    expect(decodeJwt(body.access_token ?? '').aud).toBe('urn:breach-monitor:api');
    const refreshed = await tokenRequest(idp, { grant_type: 'refresh_token', refresh_token: body.refresh_token ?? '', resource: idp.audience });
    await expect(verifier().verify(refreshed.body.access_token ?? '')).resolves.toMatchObject({ sub: 'bob' });
  });

  it('grants the newer Monitor contract scope when asked, and keeps it across a refresh', async () => {
    const scope = 'openid email offline_access https://identity.mozilla.com/apps/monitor';
    const { code, verifier: codeVerifier } = await signIn(server.idp, 'alice@example.com', { scope });
    const { body } = await exchangeCode(server.idp, code, codeVerifier);
    expect((await verifier().verify(body.access_token ?? '')).scope?.split(' ')).toContain('https://identity.mozilla.com/apps/monitor');
    const refreshed = await refresh(server.idp, body.refresh_token ?? '');
    expect((await verifier().verify(refreshed.body.access_token ?? '')).scope?.split(' ')).toContain('https://identity.mozilla.com/apps/monitor');
    // Not asked, not granted.
    const plain = await signIn(server.idp, 'bob@example.com');
    const plainTokens = await exchangeCode(server.idp, plain.code, plain.verifier);
    expect((await verifier().verify(plainTokens.body.access_token ?? '')).scope?.split(' ')).not.toContain('https://identity.mozilla.com/apps/monitor');
  });

  it('issues no refresh token without offline_access', async () => {
    const { code, verifier: codeVerifier } = await signIn(server.idp, 'carol@example.com', { scope: 'openid email' });
    const { body } = await exchangeCode(server.idp, code, codeVerifier);
    expect(body.refresh_token).toBeUndefined();
    await expect(verifier().verify(body.access_token ?? '')).resolves.toMatchObject({ sub: 'carol', email: 'carol@example.com' });
  });

  it('rejects a code exchange with the wrong code_verifier', async () => {
    const { code } = await signIn(server.idp, 'bob@example.com');
    const { status, body } = await exchangeCode(server.idp, code, pkcePair().verifier);
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
  });

  it('refuses plain PKCE and missing PKCE', async () => {
    const browser = new Browser();
    const { verifier: plainChallenge } = pkcePair();
    for (const params of [
      { codeChallenge: plainChallenge, codeChallengeMethod: 'plain' },
      { codeChallenge: undefined, codeChallengeMethod: undefined },
    ]) {
      const start = authorizationUrl(server.idp, params);
      const result = await browser.follow(await browser.request(start), start, CALLBACK);
      expect('callback' in result && result.callback.searchParams.get('error')).toBe('invalid_request');
    }
  });

  it('refuses a redirect URI that is not registered', async () => {
    const browser = new Browser();
    const start = authorizationUrl(server.idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256', redirectUri: 'http://127.0.0.1:53682/elsewhere' });
    const response = await browser.request(start);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses a loopback redirect URI on port 0, which no client listens on (RFC 8252 §7.3), and accepts any real port', async () => {
    for (const redirectUri of ['http://127.0.0.1:0/callback', 'http://127.0.0.1:00/callback', 'http://[::1]:0/callback']) {
      const browser = new Browser();
      const start = authorizationUrl(server.idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256', redirectUri });
      const response = await browser.request(start);
      expect(response.status, redirectUri).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain('redirect_uri');
    }
    const { code, verifier: codeVerifier, browser } = await signIn(server.idp, 'alice@example.com');
    expect(code).toEqual(expect.any(String));
    const { body } = await exchangeCode(server.idp, code, codeVerifier);
    // Nor may signing out send the browser there.
    const logout = await browser.request(
      `${server.idp.issuer}/session/end?${new URLSearchParams({ id_token_hint: body.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:0/callback' }).toString()}`,
    );
    expect(logout.status).toBe(400);
    expect(await logout.text()).toContain('post_logout_redirect_uri');
    const fine = await browser.request(
      `${server.idp.issuer}/session/end?${new URLSearchParams({ id_token_hint: body.id_token!, post_logout_redirect_uri: 'http://127.0.0.1:53682/callback' }).toString()}`,
    );
    expect(fine.status).toBe(200);
  });

  it('rejects a resource indicator other than the API', async () => {
    const browser = new Browser();
    const start = authorizationUrl(server.idp, {
      codeChallenge: pkcePair().challenge,
      codeChallengeMethod: 'S256',
      extra: { resource: 'https://other.example/api' },
    });
    const result = await browser.follow(await browser.request(start), start, CALLBACK);
    expect('callback' in result && result.callback.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('interaction pages', () => {
  async function openLoginPage() {
    const browser = new Browser();
    const start = authorizationUrl(server.idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256' });
    const result = await browser.follow(await browser.request(start), start, CALLBACK);
    if (!('page' in result)) throw new Error('expected a page');
    return { browser, ...result, html: await result.page.text() };
  }

  it('shows a labelled login form listing the demo users, with a strict CSP', async () => {
    const { page, html } = await openLoginPage();
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(html).toContain('<label for="email">Email</label>');
    expect(html).toMatch(/<input id="email" type="email" name="email"/);
    expect(html).toContain('<label for="password">Password</label>');
    expect(html).toMatch(/<input id="password" type="password" name="password"/);
    expect(html).toMatch(/<button type="submit"[^>]*>Sign in<\/button>/);
    expect(html).toContain('Demo users: alice@example.com, bob@example.com, carol@example.com — any password');
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('shows "Unknown demo user" for an unknown email, escaping what was typed', async () => {
    const { browser, html, url } = await openLoginPage();
    const response = await browser.submitForm(formAction(html, url), { email: '"><b>mallory@example.com', password: 'x' });
    expect(response.status).toBe(400);
    const again = await response.text();
    expect(again).toMatch(/<p role="alert"[^>]*>Unknown demo user<\/p>/);
    expect(again).toContain('value="&quot;&gt;&lt;b&gt;mallory@example.com"');
    expect(again).not.toContain('<b>mallory');
    expect(server.logLines.join('')).not.toContain('mallory@example.com');
  });

  it('asks for a password', async () => {
    const { browser, html, url } = await openLoginPage();
    const response = await browser.submitForm(formAction(html, url), { email: 'alice@example.com', password: '' });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Enter a password');
  });

  it('says which app asks for what, and Cancel sends access_denied back to the app', async () => {
    const { browser, html, url } = await openLoginPage();
    const loginAction = formAction(html, url);
    const consent = await browser.follow(await browser.submitForm(loginAction, { email: 'bob@example.com', password: 'pw' }), loginAction, CALLBACK);
    if (!('page' in consent)) throw new Error('expected the consent page');
    const consentHtml = await consent.page.text();
    expect(consentHtml).toContain('<strong>Breach Monitor</strong> asks to access your account <strong>bob@example.com</strong>');
    expect(consentHtml).toContain('See your email address');
    expect(consentHtml).toContain('Stay signed in');
    expect(consentHtml).toMatch(/<button[^>]*>Allow<\/button>/);
    expect(consentHtml).toMatch(/<button[^>]*>Cancel<\/button>/);

    const confirmAction = formAction(consentHtml, consent.url);
    const result = await browser.follow(await browser.submitForm(confirmAction, { decision: 'cancel' }), confirmAction, CALLBACK);
    expect('callback' in result && result.callback.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a form post without the interaction cookie (cross-site)', async () => {
    const { html, url } = await openLoginPage();
    const stranger = new Browser();
    const response = await stranger.submitForm(formAction(html, url), { email: 'alice@example.com', password: 'pw' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('Sign-in expired');
  });
});

describe('accounts that no longer exist', () => {
  it('cannot refresh, and cannot sign in', async () => {
    const { code, verifier: codeVerifier } = await signIn(server.idp, 'bob@example.com');
    const { body } = await exchangeCode(server.idp, code, codeVerifier);
    inactive.add('bob');
    try {
      const refreshed = await refresh(server.idp, body.refresh_token ?? '');
      expect(refreshed.status).toBe(400);
      expect(refreshed.body.error).toBe('invalid_grant');
      await expect(signIn(server.idp, 'bob@example.com')).rejects.toThrow(/expected the consent page/);
    } finally {
      inactive.delete('bob');
    }
  });
});

describe('restart', () => {
  it('keeps the signing key, tokens, and refresh tokens', async () => {
    const { idp: before } = server;
    const kidBefore = decodeProtectedHeader(await before.mintAccessToken({ sub: 'alice' })).kid;
    const minted = await before.mintAccessToken({ sub: 'alice', email: 'alice@example.com' });
    const { code, verifier: codeVerifier } = await signIn(before, 'carol@example.com');
    const { body } = await exchangeCode(before, code, codeVerifier);

    await server.restart();
    const after = server.idp;
    expect(after).not.toBe(before);
    expect(decodeProtectedHeader(await after.mintAccessToken({ sub: 'alice' })).kid).toBe(kidBefore);
    await expect(verifier().verify(minted)).resolves.toMatchObject({ sub: 'alice' });
    await expect(verifier().verify(body.access_token ?? '')).resolves.toMatchObject({ sub: 'carol' });

    const refreshed = await refresh(after, body.refresh_token ?? '');
    expect(refreshed.status).toBe(200);
    await expect(verifier().verify(refreshed.body.access_token ?? '')).resolves.toMatchObject({ sub: 'carol' });
  });
});

describe('RP-initiated logout', () => {
  it('asks before signing out, on a page of our own', async () => {
    const { browser } = await signIn(server.idp, 'alice@example.com');
    const response = await browser.request(`${server.idp.issuer}/session/end?client_id=${server.idp.clientId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).toContain('Sign out?');
    expect(html).toMatch(/<form[^>]*id="op\.logoutForm"/);
    expect(html).toMatch(/<button[^>]*name="logout"[^>]*>Sign out<\/button>/);
  });

  it("says the sign-out is incomplete, and what to do, when the app's sign-in could not be ended", async () => {
    const own = await startIdentityServer();
    let db: Database.Database | undefined;
    try {
      const { code, verifier: codeVerifier, browser } = await signIn(own.idp, 'alice@example.com');
      const { body } = await exchangeCode(own.idp, code, codeVerifier);
      // The provider's storage refuses to delete the grant's refresh tokens.
      db = new Database(join(own.dataDir, 'identity', 'provider.db'));
      db.exec("CREATE TRIGGER refuse_revocation BEFORE DELETE ON oidc_entities WHEN OLD.model = 'RefreshToken' BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
      const start = new URL(`${own.idp.issuer}/session/end`);
      const html = await (await browser.request(start)).text();
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)![1]!;
      const answer = await browser.submitForm(formAction(html, start), { xsrf, logout: 'yes' });
      expect(answer.status).toBe(500);
      const page = await answer.text();
      expect(page).toContain('Sign-out incomplete');
      expect(page).toContain('Sign out in the app');
      expect(own.logLines.join('')).toContain('signing out could not end the grants of the session');
      // Nothing was ended, as the page says: the app is still signed in until it signs out itself.
      expect((await refresh(own.idp, body.refresh_token!)).status).toBe(200);
    } finally {
      db?.close();
      await own.close();
    }
  });
});

describe('token endpoint', () => {
  it('rejects unknown grant types and unknown clients', async () => {
    expect((await tokenRequest(server.idp, { grant_type: 'client_credentials' })).body.error).toMatch(/unsupported_grant_type|unauthorized_client/);
    const unknown = await fetch(`${server.idp.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'someone-else', grant_type: 'refresh_token', refresh_token: 'x' }).toString(),
    });
    expect(unknown.status).toBe(401);
  });

  it('treats garbage refresh tokens as invalid_grant', async () => {
    const { status, body } = await refresh(server.idp, 'not-a-token');
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_grant');
    expect(new InvalidTokenError('x')).toBeInstanceOf(Error);
  });
});

describe('logs', () => {
  it('never carry demo emails or tokens in clear', async () => {
    const { code, verifier: codeVerifier } = await signIn(server.idp, 'alice@example.com');
    const { body } = await exchangeCode(server.idp, code, codeVerifier);
    await refresh(server.idp, 'garbage-refresh-token');
    const logs = server.logLines.join('');
    expect(logs).toContain('signed in');
    for (const secret of [...DEMO_USERS.map((user) => user.email), body.access_token, body.refresh_token, code]) {
      expect(logs).not.toContain(secret);
    }
  });
});
