// The sign-in's ID token as the details feed's credential, end to end: a real sign-in through
// Chromium at the reference service's OpenID provider, then the realtime database's rules
// acting on that ID token. The ID token lives in memory only; after a restore a refresh brings one.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService } from '../../../electron/core/auth/AuthService.ts';
import { parseClientConfig, type ClientConfig } from '../../../electron/core/auth/config.ts';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { RealtimeDatabaseClient } from '../../../electron/core/feed/RealtimeDatabaseClient.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, testCipher, type ReferenceService } from '../auth/harness.ts';

let reference: ReferenceService;
let browser: Browser;
let config: ClientConfig;
const dirs: string[] = [];

beforeAll(async () => {
  [reference, browser] = await Promise.all([startReference(), launchChromium()]);
  config = parseClientConfig({ issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl });
});
afterAll(async () => {
  await browser?.close();
  await reference?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function app(dataDir = tempDir('bm-feed-id'), store = EncryptedFileSecretStore.open({ dir: path.join(dataDir, 'secrets'), cipher: testCipher() })) {
  dirs.push(dataDir);
  return { dataDir, store, auth: new AuthService({ config, dataDir, secrets: store, deleteAccountData: () => undefined }) };
}

function claimsOf(idToken: string) {
  return JSON.parse(Buffer.from(idToken.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string; aud: string; iss: string; iat: number; exp: number };
}

describe('the ID token of a real sign-in', () => {
  it('reads and writes the person’s own preferences and nobody else’s; after a restore, a refresh brings a fresh one', async () => {
    const first = app();
    const driven = driveBrowser(browser, signInAs('alice@example.com'));
    await first.auth.signIn({ opener: driven.opener });
    await driven.finished;
    const tokens = first.auth.tokens!;
    const idToken = await tokens.getIdToken();
    const claims = claimsOf(idToken);
    expect(claims).toMatchObject({ sub: 'alice', aud: 'breach-monitor-desktop', iss: reference.service.issuer });

    const db = new RealtimeDatabaseClient({ url: `${reference.service.url}/rtdb`, credential: { kind: 'id-token', getIdToken: () => tokens.getIdToken() } });
    await db.put('users/alice/preferences', { hiddenBreaches: ['Adobe'], showFlaggedBreaches: false, notifications: { newBreaches: true } });
    expect(await db.get('users/alice/preferences')).toMatchObject({ status: 'ok', value: { hiddenBreaches: ['Adobe'] } });
    await expect(db.get('users/bob/preferences')).rejects.toMatchObject({ status: 401 });

    // Never kept on disk: the stored entry has no ID token.
    const stored = await first.store.get({ issuer: reference.service.issuer, subject: 'alice' });
    expect(stored).toBeDefined();
    expect(stored).not.toContain(idToken);

    // A restored sign-in has no ID token in memory: the first use refreshes for one.
    tokens.close();
    const second = app(first.dataDir, first.store);
    expect(await second.auth.restore()).toMatchObject({ state: 'signed-in' });
    const before = reference.tokenCalls();
    const restored = await second.auth.tokens!.getIdToken();
    expect(reference.tokenCalls()).toBe(before + 1);
    // Not `restored !== idToken`: a refresh in the same second as the sign-in yields the very same
    // bytes (same claims, nonce carried over by the provider, deterministic RS256 signature), and
    // nothing in OpenID Connect promises otherwise. What matters is that a refresh brought an ID
    // token for the same person, at least as recent as the first.
    const restoredClaims = claimsOf(restored);
    expect(restoredClaims).toMatchObject({ sub: 'alice', aud: 'breach-monitor-desktop', iss: reference.service.issuer });
    expect(restoredClaims.iat).toBeGreaterThanOrEqual(claims.iat);
    expect(restoredClaims.exp * 1000).toBeGreaterThan(Date.now());
    const again = new RealtimeDatabaseClient({ url: `${reference.service.url}/rtdb`, credential: { kind: 'id-token', getIdToken: () => second.auth.tokens!.getIdToken() } });
    expect(await again.get('users/alice/preferences')).toMatchObject({ status: 'ok', value: { hiddenBreaches: ['Adobe'] } });
    expect(await second.auth.tokens!.getIdToken()).toBe(restored);
    expect(reference.tokenCalls()).toBe(before + 1);
  });
});
