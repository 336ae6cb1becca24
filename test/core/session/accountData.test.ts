// Credentials a person adds belong to their account: alice's remote search token, graph key and
// feed secret are not there for bob on the same machine, and are there again for alice. Real
// core, real reference service (its search interface, its realtime database), real sign-in in
// Chromium; the secrets in the app's memory store, as on a machine without a keychain.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startCore, type Core } from '../../../electron/core/app.ts';
import { eventually } from '../../support/waitFor.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, type ReferenceService } from '../auth/harness.ts';

describe('per-account credentials and caches', () => {
  let reference: ReferenceService;
  let browser: Browser;
  let core: Core;
  let person = 'alice@example.com';

  async function call<T>(channel: string, args: unknown = {}): Promise<T> {
    const response = await core.router.dispatch({ type: 'request', id: 1, channel, args });
    if (!response.ok) throw new Error(`${channel}: ${response.error.code} ${response.error.message}`);
    return response.result as T;
  }
  async function refusal(channel: string, args: unknown = {}): Promise<{ code: string; message: string }> {
    const response = await core.router.dispatch({ type: 'request', id: 1, channel, args });
    if (response.ok) throw new Error(`${channel} answered: ${JSON.stringify(response.result).slice(0, 200)}`);
    return response.error;
  }
  async function signIn(email: string): Promise<void> {
    person = email;
    expect(await call('auth-sign-in')).toMatchObject({ state: 'signed-in', account: { email } });
    await eventually(`${email}'s first sync`, async () => ((await call<{ lastSyncAt?: string }>('sync-status')).lastSyncAt ? true : undefined));
  }

  beforeAll(async () => {
    reference = await startReference();
    browser = await launchChromium();
    core = await startCore({
      dataDir: tempDir('bm-core-accounts'),
      keychain: false,
      validateResults: true,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: { openExternal: async (url) => driveBrowser(browser, signInAs(person)).opener(url), notify: () => {}, setTrayState: () => {} },
    });
  }, 60_000);

  afterAll(async () => {
    await core?.close();
    await browser?.close();
    await reference?.close();
  });

  it("alice's search token, graph key and feed secret are hers: bob has none of them, alice has them back", { timeout: 60_000 }, async () => {
    const { token } = await reference.service.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] });
    const instance = { baseUrl: `${reference.service.url}/client/v4`, accountId: 'local', name: 'breaches', legacy: false };

    await signIn('alice@example.com');
    // No keychain in this run: the core says where secrets go, so the UI can say it truthfully.
    expect(await call('auth-status')).toMatchObject({ remembered: false, secretsKeptIn: 'memory' });
    expect(await call('search-remote-set', { ...instance, token })).toMatchObject({ hasToken: true });
    const found = await call<{ chunks: unknown[] }>('search-run', { requestId: 'alice-1', engine: 'remote', query: 'dating', onlyMine: false, answer: false });
    expect(found.chunks.length).toBeGreaterThan(0);
    expect(await call('graph-remote-set', { url: `${reference.service.url}/v2`, apiKey: 'alice-graph-key' })).toMatchObject({ hasKey: true });
    await call('feed-configure', { secret: 'alice-feed-secret' });
    expect(await call('feed-status')).toMatchObject({ hasSecret: true });

    await call('auth-sign-out', { deleteLocalData: false });
    // Signed out: nothing to read, nowhere to write.
    expect(await call('search-remote-get')).toMatchObject({ hasToken: false });
    expect(await refusal('search-run', { requestId: 'nobody', engine: 'embedded', query: 'dating', onlyMine: true, answer: false })).toMatchObject({ code: 'sign-in-required' });

    await signIn('bob@example.com');
    expect(await call('search-remote-get')).toMatchObject({ hasToken: false });
    expect(await refusal('search-run', { requestId: 'bob-1', engine: 'remote', query: 'dating', onlyMine: false, answer: false })).toMatchObject({
      message: expect.stringContaining('No API token'),
    });
    expect(await call('graph-remote-get')).toMatchObject({ hasKey: false });
    expect(await call('feed-status')).toMatchObject({ hasSecret: false });
    // Bob's own token is his, and does not replace alice's.
    expect(await call('search-remote-set', { ...instance, token })).toMatchObject({ hasToken: true });

    await call('auth-sign-out', { deleteLocalData: false });
    await signIn('alice@example.com');
    expect(await call('search-remote-get')).toMatchObject({ hasToken: true });
    expect(await call('graph-remote-get')).toMatchObject({ hasKey: true });
    expect(await call('feed-status')).toMatchObject({ hasSecret: true });
  });
});
