import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_FILE_NAME, loadOrCreateIdentityKeys } from '../../../server/identity/keys.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'identity-keys-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('identity keys', () => {
  it('are generated once, kept private on disk, and reused', async () => {
    const dir = join(tempDir(), 'nested', 'identity');
    const first = await loadOrCreateIdentityKeys(dir);
    expect(first.signingKey).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), d: expect.any(String) });
    expect(first.cookieKeys[0]?.length).toBeGreaterThanOrEqual(32);

    const file = join(dir, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = await loadOrCreateIdentityKeys(dir);
    expect(second).toEqual(first);
  });

  it('refuses an incomplete key file instead of silently replacing it', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, KEY_FILE_NAME), JSON.stringify({ keys: [] }), { mode: 0o600 });
    await expect(loadOrCreateIdentityKeys(dir)).rejects.toThrow(/incomplete/);
    expect(JSON.parse(readFileSync(join(dir, KEY_FILE_NAME), 'utf8'))).toEqual({ keys: [] });
  });
});
