// Finding 7 (issue 35): the identity provider kept refresh tokens, authorization codes and session
// cookies in clear in `identity/provider.db` and in PostgreSQL's `oidc_models`, so a backup or a
// read of a shared database yielded credentials valid for 14 days. After a real sign-in (browser
// session, code exchange, a rotated refresh token), a raw read of the file (and its write-ahead
// log) or of the table finds none of them, and each still works when presented.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../server/app.ts';
import { serviceStores } from '../../support/postgres.ts';
import { authorizationUrl, CALLBACK, exchangeCode, pkcePair, refresh, signIn } from '../identity/harness.ts';

const STORES = await serviceStores();

describe.each(STORES)('the identity provider at rest on $name', (store) => {
  let service: RunningService;
  let dataDir: string;
  let databaseUrl: string | undefined;
  beforeAll(async () => {
    if (!store.available) return;
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-identity-at-rest-'));
    databaseUrl = (await store.serviceOptions()).databaseUrl;
    service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent', databaseUrl });
  });
  afterAll(async () => {
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach((ctx) => {
    if (!store.available) ctx.skip('PostgreSQL could not start (see the message above)');
  });

  /** What anyone reading the storage would see: the file's and its log's bytes, or every row's columns. */
  async function rawStorage(): Promise<string> {
    if (!databaseUrl) {
      const file = path.join(dataDir, 'identity', 'provider.db');
      return Buffer.concat([file, `${file}-wal`].filter((name) => existsSync(name)).map((name) => readFileSync(name))).toString('latin1');
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return JSON.stringify((await client.query('SELECT * FROM oidc_models')).rows);
    } finally {
      await client.end();
    }
  }

  it('keeps no refresh token, code or session cookie in clear after a sign-in, and each still works', async () => {
    const idp = service.identity!;
    const { code, verifier, browser } = await signIn(idp, 'alice@example.com', { scope: 'openid email offline_access' });
    const sessionCookie = /(?:^|; )_session=([^;]+)/.exec(browser.jar.headerFor(new URL(`${idp.issuer}/auth`)))?.[1];
    expect(sessionCookie).toEqual(expect.any(String));
    const { body } = await exchangeCode(idp, code, verifier);
    const rotated = await refresh(idp, body.refresh_token!);
    expect(rotated.status).toBe(200);

    const raw = await rawStorage();
    // The storage is really read: the sign-in's account is there.
    expect(raw).toContain('alice');
    for (const [what, secret] of [
      ['the authorization code', code],
      ['the first refresh token', body.refresh_token!],
      ['the rotated refresh token', rotated.body.refresh_token!],
      ['the session cookie', sessionCookie!],
    ] as const) {
      expect(raw.includes(secret), `${what} in clear`).toBe(false);
    }

    // Presented, each is found: the token refreshes, and the browser's session is recognised (the
    // next authorization goes straight to the consent page, no password asked).
    expect((await refresh(idp, rotated.body.refresh_token!)).status).toBe(200);
    const start = authorizationUrl(idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256' });
    const next = await browser.follow(await browser.request(start), start, CALLBACK);
    expect('page' in next && (await next.page.text())).toContain('Allow access?');
  });
});
