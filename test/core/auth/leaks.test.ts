// Tokens never appear in logs, in the app's data folder, in what the UI is told, or in error
// messages. A whole life of a sign-in runs against the real provider with Chromium: sign-in,
// refresh, a refused refresh, sign-in again, sign-out. Every token, code and verifier the
// provider exchanged with the app is collected at the wire; then every 16-character piece of
// each is searched for everywhere the app writes.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthService, type AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { parseClientConfig } from '../../../electron/core/auth/config.ts';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { parseStoredTokens } from '../../../electron/core/auth/tokens.ts';
import { captureLogs, driveBrowser, launchChromium, revokeAtProvider, signInAs, startReference, tempDir, testCipher, windowsOf, type ReferenceService } from './harness.ts';

let reference: ReferenceService;
let browser: Browser;
let dataDir: string;

beforeAll(async () => {
  [reference, browser] = await Promise.all([startReference(), launchChromium()]);
  dataDir = tempDir('bm-app-data');
});

afterAll(async () => {
  await browser?.close();
  await reference?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A fetch that records every secret crossing the wire to the token endpoint, both ways. */
function recordingFetch(secrets: Set<string>): typeof fetch {
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes('/oidc/token') && typeof init?.body === 'string') {
      const form = new URLSearchParams(init.body);
      for (const field of ['code', 'code_verifier', 'refresh_token', 'token']) {
        const value = form.get(field);
        if (value) secrets.add(value);
      }
    } else if (url.includes('/oidc/token') && init?.body instanceof URLSearchParams) {
      for (const field of ['code', 'code_verifier', 'refresh_token', 'token']) {
        const value = init.body.get(field);
        if (value) secrets.add(value);
      }
    }
    const response = await fetch(input, init);
    if (url.endsWith('/oidc/token')) {
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as Record<string, unknown>;
      for (const field of ['access_token', 'refresh_token', 'id_token']) if (typeof body[field] === 'string') secrets.add(body[field]);
    }
    return response;
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

function leaks(secrets: Iterable<string>, places: Record<string, string>): string[] {
  const found: string[] = [];
  for (const secret of secrets) {
    const pieces = windowsOf(secret);
    for (const [place, text] of Object.entries(places)) {
      const piece = pieces.find((candidate) => text.includes(candidate));
      if (piece) found.push(`${place} holds a piece of a ${secret.length}-character secret`);
    }
  }
  return found;
}

describe('no token leaks', () => {
  it('keeps every token out of logs, the data folder, the UI status and error messages', { timeout: 30_000 }, async () => {
    const secrets = new Set<string>();
    const { logger, lines } = captureLogs();
    const statuses: AuthStatus[] = [];
    const errors: string[] = [];
    const printed: string[] = [];
    const clock = { offsetMs: 0 };
    const store = EncryptedFileSecretStore.open({ dir: path.join(dataDir, 'secrets'), cipher: testCipher() });
    const config = parseClientConfig({ issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl });
    const auth = new AuthService({ config, dataDir, secrets: store, logger, fetch: recordingFetch(secrets), now: () => Date.now() + clock.offsetMs });
    auth.onDidChangeStatus((status) => statuses.push(status));

    // Anything a library prints goes through these.
    const original = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => (printed.push(String(chunk)), original.out(chunk, ...rest))) as typeof process.stdout.write;
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => (printed.push(String(chunk)), original.err(chunk, ...rest))) as typeof process.stderr.write;
    const snapshots: Record<string, string> = {};
    try {
      const signIn = async (email: string) => {
        const driven = driveBrowser(browser, signInAs(email));
        const account = await auth.signIn({ opener: driven.opener });
        const page = await driven.finished;
        expect(page).toContain('signed in');
        return account;
      };

      const account = await signIn('alice@example.com');
      secrets.add(await auth.tokens!.getAccessToken());
      clock.offsetMs = 24 * 60 * 60 * 1000;
      secrets.add(await auth.tokens!.getAccessToken()); // refresh
      expect((await auth.api!.listBreaches({})).status).toBe(200);
      for (const file of filesUnder(dataDir)) snapshots[`signed in: ${path.relative(dataDir, file)}`] = readFileSync(file, 'latin1');

      // A refused refresh: its error and the status must not echo the refresh token.
      const stored = parseStoredTokens((await store.get({ issuer: account.issuer, subject: account.subject }))!)!;
      await revokeAtProvider(reference, stored.refreshToken!);
      clock.offsetMs = 2 * 24 * 60 * 60 * 1000;
      const refused = await auth.tokens!.getAccessToken().catch((error: unknown) => error as Error);
      for (let error: unknown = refused; error instanceof Error; error = error.cause) errors.push(`${error.name}: ${error.message} ${JSON.stringify(error)}`);
      expect(auth.status().state).toBe('sign-in-needed');

      clock.offsetMs = 0;
      await signIn('alice@example.com');
      for (const file of filesUnder(dataDir)) snapshots[`signed in again: ${path.relative(dataDir, file)}`] = readFileSync(file, 'latin1');
      expect(await auth.signOut()).toEqual({ revoked: true });
    } finally {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
    }
    for (const file of filesUnder(dataDir)) snapshots[`signed out: ${path.relative(dataDir, file)}`] = readFileSync(file, 'latin1');

    // The collection worked: codes, verifiers, access, refresh (rotated too) and ID tokens.
    expect(secrets.size).toBeGreaterThanOrEqual(10);
    expect([...secrets].some((secret) => secret.split('.').length === 3)).toBe(true);
    expect(lines.length).toBeGreaterThan(5);
    expect(Object.keys(snapshots).some((name) => name.includes('secrets'))).toBe(true);
    // The search finds a piece of a secret inside other text.
    const sample = [...secrets][0]!;
    expect(leaks(secrets, { control: `…${sample.slice(3, 19)}…` })).toHaveLength(1);

    expect(
      leaks(secrets, {
        logs: lines.join('\n'),
        'printed output': printed.join(''),
        'UI status': JSON.stringify(statuses),
        'error messages': errors.join('\n'),
        ...snapshots,
      }),
    ).toEqual([]);
    expect(filesUnder(dataDir).map((file) => path.relative(dataDir, file))).toEqual([]);
  });
});
