// The app's core signs the person in to their own loopback service (started with --owner) as its
// owner: the secret from the service's data folder, traded at the real provider's token endpoint,
// no browser opened. The sign-in ends like the browser flow's (tokens in the secret store, POST
// /user, restore at the next start); a wrong secret is refused in words; where there is no secret
// the browser flow is used as before.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AuthService, type AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { OWNER_ACCOUNT_NAME, toAuthView } from '../../../electron/core/auth/CurrentAuth.ts';
import { parseClientConfig } from '../../../electron/core/auth/config.ts';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { OwnerSignIn } from '../../../shared/api/localService.ts';
import { tempDir, testCipher } from './harness.ts';

const dirs: string[] = [];
const running: RunningService[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function ownerService(): Promise<RunningService> {
  const dataDir = tempDir('bm-owner-service');
  dirs.push(dataDir);
  const service = await startService({ port: 0, logLevel: 'silent', dataDir, owner: true });
  running.push(service);
  return service;
}

function app(service: RunningService, ownerSecret: () => string | undefined) {
  const dataDir = tempDir('bm-owner-app');
  dirs.push(dataDir);
  const store = EncryptedFileSecretStore.open({ dir: path.join(dataDir, 'secrets'), cipher: testCipher() });
  const make = () => new AuthService({ config: parseClientConfig({ issuer: service.issuer, apiBaseUrl: service.apiBaseUrl }), dataDir, secrets: store, ownerSecret });
  const auth = make();
  const statuses: AuthStatus[] = [];
  auth.onDidChangeStatus((status) => statuses.push(status));
  return { auth, statuses, make };
}

const secretOf = (service: RunningService) => readFileSync(path.join(service.dataDir, OwnerSignIn.secretFile), 'utf8').trim();
const noBrowser = () => {
  throw new Error('no browser may open for the owner');
};

describe("the owner's sign-in from the app's core", () => {
  it('offers "Continue", signs in without a browser, registers, and is restored at the next start', async () => {
    const service = await ownerService();
    const { auth, statuses, make } = app(service, () => secretOf(service));
    expect(auth.status()).toMatchObject({ state: 'signed-out', ownerSignIn: true });
    expect(toAuthView(auth.status(), true).ownerSignIn).toBe(true);

    const account = await auth.signIn({ opener: noBrowser });
    expect(account).toMatchObject({ subject: 'owner', issuer: service.issuer, email: undefined });
    expect(statuses.map((status) => status.state)).toEqual(['signing-in', 'signed-in']);
    expect(statuses.every((status) => status.signIn === undefined)).toBe(true);
    expect(auth.status().ownerSignIn).toBeUndefined();
    // Named in words where the page shows who is signed in, never by the account's hashed id.
    expect(toAuthView(auth.status(), true).account).toMatchObject({ name: OWNER_ACCOUNT_NAME });
    expect(toAuthView(auth.status(), true).account?.email).toBeUndefined();
    // POST /user answered: the owner's monitoring user exists, with no address of its own.
    expect(await service.store.hasUser('owner')).toBe(true);
    const token = await auth.tokens!.getAccessToken();
    const emails = await fetch(`${service.apiBaseUrl}/user/emails`, { headers: { authorization: `Bearer ${token}` } });
    expect(emails.status).toBe(200);
    expect(await emails.json()).toEqual([]);

    const again = make();
    expect((await again.restore()).state).toBe('signed-in');
    expect(again.status().account?.subject).toBe('owner');
  });

  it('refuses a secret that is not the service’s, in words, and opens no browser', async () => {
    const service = await ownerService();
    const { auth } = app(service, () => 'not-the-secret-not-the-secret-not-the-secr');
    await expect(auth.signIn({ opener: noBrowser })).rejects.toThrow('Your local breach-alert service did not recognise this computer’s owner key');
    expect(auth.status()).toMatchObject({ state: 'signed-out', error: expect.stringContaining('owner key') });
  });

  it('says so where the service does not sign its owner in (started without --owner)', async () => {
    const dataDir = tempDir('bm-demo-service');
    dirs.push(dataDir);
    const demo = await startService({ port: 0, logLevel: 'silent', dataDir, dev: true });
    running.push(demo);
    const { auth } = app(demo, () => 'a-secret-left-over-from-a-real-run-of-the-service');
    await expect(auth.signIn({ opener: noBrowser })).rejects.toThrow('Your local breach-alert service does not sign its owner in');
  });

  it('has nothing to offer without a secret: the browser sign-in stays', async () => {
    const service = await ownerService();
    const { auth } = app(service, () => undefined);
    expect(auth.status().ownerSignIn).toBeUndefined();
  });
});
