// What the service remembers between requests, and when it must forget: verified tokens until
// their exp, and answers per user until that user's own data (or the catalog) changes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidTokenError, type AccessTokenClaims, type AccessTokenVerifier } from '../../../server/auth/AccessTokenVerifier.ts';
import { cachingVerifier } from '../../../server/auth/cachingVerifier.ts';
import { openSqliteBreachStore, type SqliteBreachStore } from '../../../server/breaches/SqliteBreachStore.ts';
import { breach } from '../store/helpers.ts';

/** A verifier that counts its calls and accepts tokens named `ok-<exp>`. */
function countingVerifier(): AccessTokenVerifier & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    async verify(token: string): Promise<AccessTokenClaims> {
      calls.push(token);
      const match = /^ok-(\d+)$/.exec(token);
      if (!match) throw new InvalidTokenError('invalid signature');
      return { sub: 'alice', email: 'alice@example.com', emailVerified: true, expiresAt: Number(match[1]) };
    },
  };
}

describe('the verified-token cache', () => {
  let now = 1000;
  const clock = () => now;
  beforeEach(() => {
    now = 1000;
  });

  it('verifies a token once and answers repeats from memory, keyed by the exact token', async () => {
    const inner = countingVerifier();
    const verifier = cachingVerifier(inner, { now: clock });
    const first = await verifier.verify('ok-2000');
    expect(await verifier.verify('ok-2000')).toEqual(first);
    expect(await verifier.verify('ok-2000')).toEqual(first);
    expect(inner.calls).toEqual(['ok-2000']);
    await verifier.verify('ok-2001');
    expect(inner.calls).toEqual(['ok-2000', 'ok-2001']);
  });

  it('never answers from memory at or past the token exp: the real check decides again', async () => {
    const inner = countingVerifier();
    const verifier = cachingVerifier(inner, { now: clock });
    await verifier.verify('ok-2000');
    now = 1999.9;
    await verifier.verify('ok-2000');
    expect(inner.calls).toHaveLength(1);
    now = 2000;
    await verifier.verify('ok-2000');
    expect(inner.calls).toHaveLength(2);
  });

  it('does not remember refusals', async () => {
    const inner = countingVerifier();
    const verifier = cachingVerifier(inner, { now: clock });
    await expect(verifier.verify('forged')).rejects.toThrow(InvalidTokenError);
    await expect(verifier.verify('forged')).rejects.toThrow(InvalidTokenError);
    expect(inner.calls).toEqual(['forged', 'forged']);
  });

  it('is bounded, oldest out first', async () => {
    const inner = countingVerifier();
    const verifier = cachingVerifier(inner, { now: clock, maxEntries: 2 });
    for (const token of ['ok-3001', 'ok-3002', 'ok-3003']) await verifier.verify(token);
    await verifier.verify('ok-3003');
    await verifier.verify('ok-3002');
    expect(inner.calls).toHaveLength(3);
    await verifier.verify('ok-3001');
    expect(inner.calls).toHaveLength(4);
  });

  it('hands out copies, so a caller cannot change what the next request sees', async () => {
    const verifier = cachingVerifier(countingVerifier(), { now: clock });
    const claims = await verifier.verify('ok-2000');
    claims.email = 'mallory@example.com';
    expect((await verifier.verify('ok-2000')).email).toBe('alice@example.com');
  });
});

describe('per-user change stamps', () => {
  let dir: string;
  let store: SqliteBreachStore;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'svc-stamps-'));
    store = openSqliteBreachStore(path.join(dir, 'service.db'));
    store.replaceCatalog([breach('Adobe'), breach('Canva')]);
    store.setExposures('alice@example.com', ['Adobe']);
    store.setExposures('bob@example.com', ['Adobe', 'Canva']);
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const alice = ['alice@example.com', 'alice.work@example.com'];
  const resolve = (email: string, resolved = true) => store.applyResolutionChanges([{ email, breachId: 'Adobe', dataClass: 'Passwords', resolved }], '2026-02-01T10:00:00Z');

  it("stays when another user writes: bob's resolution keeps alice's cached answers valid", () => {
    const before = store.changeStamp(alice);
    resolve('bob@example.com');
    store.setExposures('carol@example.com', ['Canva']);
    store.putAccount({ sub: 'bob', emails: ['bob@example.com'], deleted: false });
    store.createUser('bob');
    expect(store.changeStamp(alice)).toBe(before);
  });

  it("moves on the user's own resolutions and exposures, and on catalog changes", () => {
    const stamps = [store.changeStamp(alice)];
    const step = (write: () => void) => {
      write();
      const stamp = store.changeStamp(alice);
      expect(stamps).not.toContain(stamp);
      stamps.push(stamp);
    };
    step(() => resolve('alice@example.com'));
    step(() => resolve('ALICE@example.com', false));
    step(() => store.setExposures('alice.work@example.com', ['Canva']));
    step(() => store.putBreach(breach('Dropbox')));
    step(() => store.replaceCatalog([breach('Adobe')]));
  });

  it('stays when a write changes nothing (a repeated resolution)', () => {
    resolve('alice@example.com');
    const stamp = store.changeStamp(alice);
    resolve('alice@example.com');
    expect(store.changeStamp(alice)).toBe(stamp);
  });

  it('moves when another connection writes, and remembered accounts are read again (from the next request on)', async () => {
    store.putAccount({ sub: 'alice', emails: alice, deleted: false });
    expect(store.getAccount('alice')?.deleted).toBe(false);
    expect(store.hasUser('alice')).toBe(false);
    const stamp = store.changeStamp(alice);
    const other = openSqliteBreachStore(path.join(dir, 'service.db'));
    try {
      other.putAccount({ sub: 'alice', emails: alice, deleted: true });
      other.createUser('alice');
      other.applyResolutionChanges([{ email: 'alice@example.com', breachId: 'Adobe', dataClass: 'Passwords', resolved: true }], '2026-02-01T10:00:00Z');
    } finally {
      other.close();
    }
    // A request is its own turn of the event loop; the store looks for foreign commits once per turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.changeStamp(alice)).not.toBe(stamp);
    expect(store.getAccount('alice')?.deleted).toBe(true);
    expect(store.hasUser('alice')).toBe(true);
  });

  it('hands out copies of remembered accounts', () => {
    store.putAccount({ sub: 'alice', emails: ['alice@example.com'], deleted: false });
    store.getAccount('alice')!.emails.push('mallory@example.com');
    expect(store.getAccount('alice')!.emails).toEqual(['alice@example.com']);
  });
});
