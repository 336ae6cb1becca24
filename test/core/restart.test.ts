// A restart of the core with the shell's safeStorage fallback (no keychain): the session comes
// back from the encrypted files, nothing is stored in clear, and the "New" marks survive.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { SecretCipher } from '../../electron/core/host.ts';
import { startCore, type Core } from '../../electron/core/app.ts';
import { driveBrowser, launchChromium, signInAs, startReference, tempDir, testCipher, type ReferenceService } from './auth/harness.ts';

/** The host's asynchronous view of safeStorage, as the utility process gets it from the main process. */
function hostCipher(): SecretCipher {
  const cipher = testCipher();
  return {
    isAvailable: async () => cipher.isEncryptionAvailable(),
    encrypt: async (plaintext) => cipher.encryptString(plaintext) as Buffer,
    decrypt: async (ciphertext) => cipher.decryptString(Buffer.from(ciphertext)) as string,
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

describe('core restart with the encrypted-file secret store', () => {
  let reference: ReferenceService;
  let browser: Browser;
  let dataDir: string;
  const cipher = hostCipher();
  const cores: Core[] = [];

  async function start(): Promise<Core> {
    const core = await startCore({
      dataDir,
      keychain: false,
      config: { issuer: reference.service.issuer, apiBaseUrl: reference.service.apiBaseUrl },
      host: {
        openExternal: async (url) => driveBrowser(browser, signInAs('bob@example.com')).opener(url),
        notify: () => {},
        setTrayState: () => {},
        cipher,
      },
    });
    cores.push(core);
    return core;
  }

  beforeAll(async () => {
    reference = await startReference();
    browser = await launchChromium();
    dataDir = tempDir('bm-restart');
  }, 60_000);

  afterAll(async () => {
    for (const core of cores) await core.close();
    await browser?.close();
    await reference?.close();
  });

  it('signs in, learns of a new breach, and keeps both across a restart', async () => {
    const first = await start();
    const signedIn = await first.router.invoke('auth-sign-in', {});
    expect(signedIn).toMatchObject({ state: 'signed-in', remembered: true });
    await first.router.invoke('sync-now', {});

    const breach = { id: 'AfterRestartLeak', domain: 'restart.example', breachDate: '2026-10-01', addedDate: '2026-11-21T09:00Z', dataClasses: ['Email addresses'], isSensitive: false };
    await fetch(`${reference.service.url}/__dev/breaches`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(breach) });
    const before = await first.router.invoke('breaches-list', { includeSensitive: true });
    const ids = before.rows.filter((row) => row.emails.includes('bob@example.com')).map((row) => row.breach.id);
    await fetch(`${reference.service.url}/__dev/exposures`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com', breachIds: [...ids, breach.id] }),
    });
    await first.router.invoke('sync-now', {});
    expect((await first.router.invoke('breaches-list', { text: 'AfterRestart' })).rows).toMatchObject([{ isNew: true }]);
    await first.close();

    const second = await start();
    expect(await second.router.invoke('auth-status', {})).toMatchObject({ state: 'signed-in', account: { email: 'bob@example.com' } });
    expect((await second.router.invoke('breaches-list', { text: 'AfterRestart' })).rows).toMatchObject([{ breach: { id: 'AfterRestartLeak' }, isNew: true }]);
    expect((await second.router.invoke('sync-now', {})).lastError).toBeUndefined();
  });

  it('keeps no secret in clear in the data folder', () => {
    const files = filesUnder(dataDir);
    expect(files.some((file) => file.endsWith('.secret'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(file).toString('latin1');
      expect(text, file).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/); // no JWT
      expect(text, file).not.toMatch(/"refresh_token"|"access_token"/);
    }
  });
});
