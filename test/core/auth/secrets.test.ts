// The secret stores: keytar against a real Secret Service (gnome-keyring on a private D-Bus,
// started by tools/with-keyring.sh; required in CI), the safeStorage-style encrypted files,
// memory, and the choice between them when the keychain is missing.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { platform } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainAccount } from '../../../electron/core/accounts/accountId.ts';
import { chooseSecretStore, NOT_REMEMBERED_WARNING } from '../../../electron/core/auth/secrets/chooseSecretStore.ts';
import { EncryptedFileSecretStore } from '../../../electron/core/auth/secrets/EncryptedFileSecretStore.ts';
import { KEYCHAIN_SERVICE, KeytarSecretStore, loadKeytar, type Keytar } from '../../../electron/core/auth/secrets/KeytarSecretStore.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { SecretStoreUnavailableError, type SecretKey, type SecretStore } from '../../../electron/core/auth/secrets/SecretStore.ts';
import { tempDir } from './harness.ts';
import { testCipher } from './testCipher.ts';
import { IN_CI, KEYCHAIN_MISSING, KEYTAR_INSTALLED, RUN_KEYCHAIN_TESTS } from '../../support/keychain.ts';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ALICE: SecretKey = { issuer: 'https://id.example.com', subject: 'alice' };
const BOB: SecretKey = { issuer: 'https://id.example.com', subject: 'bob' };
const OTHER_ISSUER_ALICE: SecretKey = { issuer: 'https://other.example.org/', subject: 'alice' };

/** The contract every store keeps, whatever is behind it. */
async function roundTrip(store: SecretStore): Promise<void> {
  expect(await store.get(ALICE)).toBeUndefined();
  await store.set(ALICE, '{"refreshToken":"first"}');
  expect(await store.get(ALICE)).toBe('{"refreshToken":"first"}');
  await store.set(ALICE, '{"refreshToken":"second ✓"}');
  expect(await store.get(ALICE)).toBe('{"refreshToken":"second ✓"}');
  // Two accounts on one machine, even with the same subject at another issuer, never share an entry.
  await store.set(BOB, 'bob-secret');
  await store.set(OTHER_ISSUER_ALICE, 'other-alice');
  expect(await store.get(ALICE)).toBe('{"refreshToken":"second ✓"}');
  expect(await store.get(BOB)).toBe('bob-secret');
  expect(await store.get(OTHER_ISSUER_ALICE)).toBe('other-alice');
  expect(await store.delete(ALICE)).toBe(true);
  expect(await store.get(ALICE)).toBeUndefined();
  expect(await store.delete(ALICE)).toBe(false);
  expect(await store.get(BOB)).toBe('bob-secret');
  await store.delete(BOB);
  await store.delete(OTHER_ISSUER_ALICE);
}

if (!RUN_KEYCHAIN_TESTS) {
  console.warn(`keytar tests skipped: ${KEYCHAIN_MISSING}. Run them with \`tools/with-keyring.sh npx vitest run test/core/auth\` (they are required when CI is set).`);
}

describe.runIf(RUN_KEYCHAIN_TESTS)('keytar against the real keychain', () => {
  const service = `${KEYCHAIN_SERVICE} test ${randomBytes(4).toString('hex')}`;

  it('opens (in CI this must work: a missing keychain is a failure, not a skip)', async () => {
    const store = await KeytarSecretStore.open({ service }).catch((error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      // The wrapper unlocks the login keyring with its own password; one created earlier with another stays locked.
      const hint = /locked collection/.test(message)
        ? ' — the login keyring under $XDG_DATA_HOME/keyrings (default ~/.local/share/keyrings) was created with another password than tools/with-keyring.sh unlocks with; run with XDG_DATA_HOME=$(mktemp -d)'
        : '';
      throw new Error(message + hint, { cause: error });
    });
    expect(store).toMatchObject({ kind: 'keychain', persistent: true, service });
  });

  it('round trip, overwrite, delete', async () => {
    await roundTrip(await KeytarSecretStore.open({ service }));
  });

  it('names entries service "Breach Monitor", account issuer#subject', async () => {
    expect(KEYCHAIN_SERVICE).toBe('Breach Monitor');
    const store = await KeytarSecretStore.open({ service });
    await store.set(ALICE, 'value');
    const keytar = await loadKeytar();
    expect(await keytar.getPassword(service, keychainAccount(ALICE.issuer, ALICE.subject))).toBe('value');
    expect(keychainAccount(ALICE.issuer, ALICE.subject)).toBe('https://id.example.com#alice');
    await store.delete(ALICE);
  });

  it('is the first choice when it works', async () => {
    const choice = await chooseSecretStore({ keychain: { service } });
    expect(choice).toMatchObject({ store: { kind: 'keychain', persistent: true }, warning: undefined, skipped: [] });
  });
});

describe('encrypted files (Electron safeStorage, wired by the shell)', () => {
  function open() {
    const dir = path.join(tempDir('bm-secrets'), 'secrets');
    dirs.push(path.dirname(dir));
    const cipher = testCipher();
    return { dir, cipher, store: EncryptedFileSecretStore.open({ dir, cipher }) };
  }

  it('round trip, overwrite, delete', async () => {
    await roundTrip(open().store);
  });

  it('writes only ciphertext, 0600 in a 0700 folder, under hashed names, with no temporary files left', async () => {
    const { dir, store } = open();
    const secret = 'refresh-token-value-that-must-not-appear-in-clear';
    await store.set(ALICE, secret);
    await store.set(ALICE, secret + '-rotated');
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^[0-9a-f]{32}\.secret$/);
    const bytes = readFileSync(path.join(dir, files[0]!));
    expect(bytes.toString('latin1')).not.toContain('refresh-token-value');
    expect(bytes.toString('latin1')).not.toContain('alice');
    if (platform() !== 'win32') {
      expect(statSync(path.join(dir, files[0]!)).mode & 0o777).toBe(0o600);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    }
  });

  it('refuses to work when encryption is unavailable or only "basic_text"', () => {
    const dir = tempDir('bm-secrets');
    dirs.push(dir);
    expect(() => EncryptedFileSecretStore.open({ dir, cipher: testCipher({ available: false }) })).toThrow(SecretStoreUnavailableError);
    expect(() => EncryptedFileSecretStore.open({ dir, cipher: testCipher({ backend: 'basic_text' }) })).toThrow(/does not protect stored secrets/);
    expect(EncryptedFileSecretStore.open({ dir, cipher: testCipher({ backend: 'gnome_libsecret' }) }).kind).toBe('encrypted-file');
  });

  it('treats a file it cannot decrypt (another OS key) as no secret', async () => {
    const { dir, store } = open();
    await store.set(ALICE, 'value');
    const other = EncryptedFileSecretStore.open({ dir, cipher: testCipher() });
    expect(await other.get(ALICE)).toBeUndefined();
    writeFileSync(path.join(dir, readdirSync(dir)[0]!), 'garbage');
    expect(await store.get(ALICE)).toBeUndefined();
  });
});

describe('memory', () => {
  it('round trip, overwrite, delete; says it is not persistent', async () => {
    const store = new MemorySecretStore();
    expect(store).toMatchObject({ kind: 'memory', persistent: false });
    await roundTrip(store);
  });
});

describe('no keychain', () => {
  const missingKeytar = { load: () => Promise.reject(new Error("Cannot find package 'keytar'")) };

  it('falls back to encrypted files when the shell wired safeStorage', async () => {
    const dir = tempDir('bm-secrets');
    dirs.push(dir);
    const choice = await chooseSecretStore({ keychain: missingKeytar, encryptedFile: { dir, cipher: testCipher() } });
    expect(choice.store.kind).toBe('encrypted-file');
    expect(choice.warning).toBeUndefined();
    expect(choice.skipped).toEqual(["the keychain module (keytar) is not available: Cannot find package 'keytar'"]);
  });

  it('falls back to memory, with the warning the UI shows, when nothing can keep a secret safely', async () => {
    const dir = tempDir('bm-secrets');
    dirs.push(dir);
    const choice = await chooseSecretStore({ keychain: missingKeytar, encryptedFile: { dir, cipher: testCipher({ backend: 'basic_text' }) } });
    expect(choice.store).toMatchObject({ kind: 'memory', persistent: false });
    expect(choice.warning).toBe(NOT_REMEMBERED_WARNING);
    expect(NOT_REMEMBERED_WARNING).toBe('You will need to sign in again next time: no keychain is available.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a keychain that refuses writes (a locked collection) counts as no keychain', async () => {
    const locked: Keytar = {
      getPassword: async () => null,
      setPassword: async () => {
        throw new Error('Cannot create an item in a locked collection');
      },
      deletePassword: async () => false,
    };
    const choice = await chooseSecretStore({ keychain: { load: async () => locked } });
    expect(choice.store.kind).toBe('memory');
    expect(choice.skipped).toEqual(['the keychain cannot be used: Cannot create an item in a locked collection']);
  });

  // The real thing: keytar loaded, but no Secret Service on the session bus (needs keytar built; CI has it).
  it.runIf(platform() === 'linux' && (KEYTAR_INSTALLED || IN_CI))('with real keytar and no Secret Service reachable, chooses the fallback', { timeout: 20_000 }, async () => {
    const dir = tempDir('bm-secrets');
    dirs.push(dir);
    const fixture = path.join(import.meta.dirname, 'fixtures', 'chooseStore.ts');
    const env = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', DISPLAY: '', BM_TEST_DIR: dir };
    const plain = JSON.parse((await run(process.execPath, [fixture], { env })).stdout) as { kind: string; warning?: string; skipped: string[] };
    expect(plain).toMatchObject({ kind: 'memory', persistent: false, warning: NOT_REMEMBERED_WARNING });
    expect(plain.skipped[0]).toMatch(/^the keychain cannot be used: /);
    const withFile = JSON.parse((await run(process.execPath, [fixture, 'with-encrypted-file'], { env })).stdout) as { kind: string };
    expect(withFile).toMatchObject({ kind: 'encrypted-file', persistent: true });
  });
});
