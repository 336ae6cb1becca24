// TokenManager against a scripted refresher and a fake clock: the timing rules (skew,
// single-flight, once per 401) and what happens to state and storage when a refresh fails.
// The same behaviour against the real provider is in signIn.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { ApiError } from '../../../electron/core/api/ApiError.ts';
import { BreachAlertClient } from '../../../electron/core/api/BreachAlertClient.ts';
import { RefreshRefusedError } from '../../../electron/core/auth/errors.ts';
import type { RefreshedTokens, TokenRefresher } from '../../../electron/core/auth/ProviderClient.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import type { SecretKey, SecretStore } from '../../../electron/core/auth/secrets/SecretStore.ts';
import { TokenManager, type TokenManagerState } from '../../../electron/core/auth/TokenManager.ts';
import { eventually } from '../../support/waitFor.ts';
import { parseStoredTokens } from '../../../electron/core/auth/tokens.ts';

const KEY: SecretKey = { issuer: 'https://id.example.com', subject: 'alice' };
const HOUR = 3_600_000;

/** A refresher whose answers the test releases one by one. */
class ScriptedRefresher implements TokenRefresher {
  calls: string[] = [];
  next: Array<(refreshToken: string) => Promise<RefreshedTokens>> = [];
  readonly clock: { now: number };
  #counter = 0;

  constructor(clock: { now: number }) {
    this.clock = clock;
  }

  async refresh(refreshToken: string): Promise<RefreshedTokens> {
    this.calls.push(refreshToken);
    const step = this.next.shift();
    if (step) return step(refreshToken);
    this.#counter += 1;
    return { accessToken: `access-${this.#counter}`, refreshToken: `refresh-${this.#counter}`, expiresAt: this.clock.now + HOUR };
  }
}

function setup(options: { expiresAt?: number; refreshToken?: string | undefined; store?: SecretStore } = {}) {
  const clock = { now: 1_000_000 };
  const refresher = new ScriptedRefresher(clock);
  const store = options.store ?? new MemorySecretStore();
  const states: TokenManagerState[] = [];
  const create = async () => {
    const manager = await TokenManager.start(
      { key: KEY, store, refresher, now: () => clock.now },
      { accessToken: 'access-0', expiresAt: options.expiresAt ?? clock.now + HOUR, refreshToken: 'refreshToken' in options ? options.refreshToken : 'refresh-0' },
    );
    manager.onDidChangeState(({ state }) => states.push(state));
    return manager;
  };
  return { clock, refresher, store, states, create };
}

describe('TokenManager', () => {
  it('hands out the access token until 60 s before expiry, then refreshes', async () => {
    const { clock, refresher, create } = setup();
    const tokens = await create();
    clock.now += HOUR - 60_001;
    expect(await tokens.getAccessToken()).toBe('access-0');
    expect(refresher.calls).toEqual([]);
    clock.now += 1;
    expect(await tokens.getAccessToken()).toBe('access-1');
    expect(refresher.calls).toEqual(['refresh-0']);
  });

  it('concurrent callers share one refresh', async () => {
    const { clock, refresher, create } = setup();
    const tokens = await create();
    clock.now += HOUR;
    let release: (() => void) | undefined;
    refresher.next.push(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { accessToken: 'shared', refreshToken: 'refresh-shared', expiresAt: clock.now + HOUR };
    });
    const all = Promise.all([tokens.getAccessToken(), tokens.getAccessToken(), tokens.refreshAfterUnauthorized('access-0'), tokens.getAccessToken()]);
    (await eventually('the refresh to reach the provider', () => release))();
    expect(await all).toEqual(['shared', 'shared', 'shared', 'shared']);
    expect(refresher.calls).toHaveLength(1);
  });

  it('refreshes after a 401 only for the token that was rejected', async () => {
    const { refresher, create } = setup();
    const tokens = await create();
    expect(await tokens.refreshAfterUnauthorized('access-0')).toBe('access-1');
    // A late 401 for the old token: someone already refreshed, nothing to do.
    expect(await tokens.refreshAfterUnauthorized('access-0')).toBe('access-1');
    expect(refresher.calls).toHaveLength(1);
  });

  it('renews the ID token after a 401 only for the token that was refused, sharing one refresh', async () => {
    const { clock, refresher, create } = setup();
    const idToken = (n: number) => `h.${Buffer.from(JSON.stringify({ exp: Math.floor(clock.now / 1000) + 3600, n })).toString('base64url')}.s`;
    const tokens = await create();
    refresher.next.push(async () => ({ accessToken: 'access-1', refreshToken: 'refresh-1', idToken: idToken(1), expiresAt: clock.now + HOUR }));
    const first = await tokens.getIdToken();
    expect(first).toBe(idToken(1));
    refresher.next.push(async () => ({ accessToken: 'access-2', refreshToken: 'refresh-2', idToken: idToken(2), expiresAt: clock.now + HOUR }));
    // Two requests refused with the same token at once: one refresh, both get the new token.
    expect(await Promise.all([tokens.idTokenAfterUnauthorized(first), tokens.idTokenAfterUnauthorized(first)])).toEqual([idToken(2), idToken(2)]);
    // A late 401 for the old token: already replaced, nothing to do.
    expect(await tokens.idTokenAfterUnauthorized(first)).toBe(idToken(2));
    expect(refresher.calls).toEqual(['refresh-0', 'refresh-1']);
  });

  it('the API client refreshes once on a 401, and gives up if the new token is refused too', async () => {
    const { refresher, create } = setup();
    const tokens = await create();
    const seen: string[] = [];
    const client = new BreachAlertClient({
      baseUrl: 'https://api.example.com/api/v1',
      tokens,
      fetch: async (_url, init) => {
        seen.push(new Headers(init?.headers).get('authorization') ?? '');
        return new Response(JSON.stringify({ title: 'Unauthorized', status: 401, detail: 'bad token' }), { status: 401, headers: { 'content-type': 'application/problem+json' } });
      },
    });
    const error = await client.listBreaches({}).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe('unauthorized');
    expect(seen).toEqual(['Bearer access-0', 'Bearer access-1']);
    expect(refresher.calls).toHaveLength(1);
  });

  it('saves every refresh, including the rotated refresh token', async () => {
    const { clock, store, create } = setup();
    const tokens = await create();
    clock.now += HOUR;
    await tokens.getAccessToken();
    expect(parseStoredTokens((await store.get(KEY))!)).toEqual({ accessToken: 'access-1', expiresAt: clock.now + HOUR, refreshToken: 'refresh-1', scope: undefined });
  });

  it('keeps the refresh token when the provider does not rotate it', async () => {
    const { clock, refresher, store, create } = setup();
    const tokens = await create();
    refresher.next.push(async () => ({ accessToken: 'access-x', expiresAt: clock.now + HOUR }));
    clock.now += HOUR;
    await tokens.getAccessToken();
    clock.now += HOUR;
    await tokens.getAccessToken();
    expect(refresher.calls).toEqual(['refresh-0', 'refresh-0']);
    expect(parseStoredTokens((await store.get(KEY))!)?.refreshToken).toBe('refresh-1');
  });

  it('a refused refresh: sign-in needed, every waiting caller told, the dead tokens deleted', async () => {
    const { clock, refresher, store, states, create } = setup();
    const tokens = await create();
    refresher.next.push(async () => {
      throw new RefreshRefusedError('invalid_grant', 'grant request is invalid');
    });
    clock.now += HOUR;
    const results = await Promise.allSettled([tokens.getAccessToken(), tokens.getAccessToken()]);
    for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(SignInRequiredError);
    expect(tokens.state).toBe('sign-in-needed');
    expect(states).toEqual(['sign-in-needed']);
    expect(await store.get(KEY)).toBeUndefined();
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(refresher.calls).toHaveLength(1);
  });

  it('a network failure is not the end of the sign-in: transient error, still signed in, and the token is used while it lasts', async () => {
    const { clock, refresher, store, states, create } = setup();
    const tokens = await create();
    refresher.next.push(async () => {
      throw new ApiError('network', 'the sign-in provider cannot be reached: ECONNREFUSED');
    });
    clock.now += HOUR - 30_000; // inside the skew window, not yet expired
    expect(await tokens.getAccessToken()).toBe('access-0');
    refresher.next.push(async () => {
      throw new ApiError('network', 'the sign-in provider cannot be reached: ECONNREFUSED');
    });
    clock.now += 60_000; // expired
    const error = await tokens.getAccessToken().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).transient).toBe(true);
    expect(tokens.state).toBe('active');
    expect(states).toEqual([]);
    expect(await store.get(KEY)).toBeDefined();
    expect(await tokens.getAccessToken()).toBe('access-1');
  });

  it('without a refresh token, an expired access token means sign-in needed', async () => {
    const { clock, create } = setup({ refreshToken: undefined });
    const tokens = await create();
    clock.now += HOUR;
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(tokens.state).toBe('sign-in-needed');
  });

  it('a refresh that answers for another subject is refused', async () => {
    const { clock, refresher, create } = setup();
    const tokens = await create();
    refresher.next.push(async () => ({ accessToken: 'mallory', refreshToken: 'r', expiresAt: clock.now + HOUR, subject: 'mallory' }));
    clock.now += HOUR;
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    expect(tokens.state).toBe('sign-in-needed');
  });

  it('restores from the store; unreadable entries mean no tokens', async () => {
    const { clock, store, refresher, create } = setup();
    await create();
    const restored = await TokenManager.restore({ key: KEY, store, refresher, now: () => clock.now });
    expect(await restored!.getAccessToken()).toBe('access-0');
    await store.set(KEY, 'not json');
    expect(await TokenManager.restore({ key: KEY, store, refresher })).toBeUndefined();
    await store.delete(KEY);
    expect(await TokenManager.restore({ key: KEY, store, refresher })).toBeUndefined();
  });

  it('leaves a large access token out of the store rather than overflow a keychain entry', async () => {
    const { store, refresher } = setup();
    const big = 'a'.repeat(3000);
    await TokenManager.start({ key: KEY, store, refresher }, { accessToken: big, expiresAt: Date.now() + HOUR, refreshToken: 'refresh-0' });
    expect(parseStoredTokens((await store.get(KEY))!)).toEqual({ accessToken: undefined, expiresAt: undefined, refreshToken: 'refresh-0', scope: undefined });
  });

  it('reports a store that cannot save, and keeps working for the session', async () => {
    const failing: SecretStore = {
      kind: 'keychain',
      persistent: true,
      get: async () => undefined,
      set: async () => {
        throw new Error('Cannot create an item in a locked collection');
      },
      delete: async () => false,
    };
    const { clock, create } = setup({ store: failing });
    const tokens = await create();
    expect(tokens.persisted).toBe(false);
    const messages: string[] = [];
    tokens.onDidFailToPersist((message) => messages.push(message));
    clock.now += HOUR;
    expect(await tokens.getAccessToken()).toBe('access-1');
    expect(messages).toEqual(['Breach Monitor could not save your sign-in to the keychain; you will need to sign in again next time.']);
  });

  it('sign-out deletes, then revokes the newest refresh token, even with a refresh in flight', async () => {
    const { clock, refresher, store, create } = setup();
    const tokens = await create();
    let release: (() => void) | undefined;
    refresher.next.push(async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return { accessToken: 'access-late', refreshToken: 'refresh-late', expiresAt: clock.now + HOUR };
    });
    clock.now += HOUR;
    const inFlight = tokens.getAccessToken();
    const releaseRefresh = await eventually('the refresh to reach the provider', () => release);
    const revoked: string[] = [];
    const signingOut = tokens.signOut(async (token, hint) => {
      revoked.push(`${hint}:${token}`);
      return true;
    });
    releaseRefresh();
    expect(await signingOut).toEqual({ revoked: true });
    await expect(inFlight).rejects.toBeInstanceOf(SignInRequiredError);
    expect(revoked).toEqual(['refresh_token:refresh-late']);
    expect(await store.get(KEY)).toBeUndefined();
    expect(tokens.state).toBe('closed');
  });

  it('sign-out still deletes locally when revocation fails', async () => {
    const { store, create } = setup();
    const tokens = await create();
    const result = await tokens.signOut(async () => {
      throw new Error('ECONNREFUSED');
    });
    expect(result).toEqual({ revoked: false });
    expect(await store.get(KEY)).toBeUndefined();
  });

  it('a closed manager hands out nothing', async () => {
    const { create, store } = setup();
    const tokens = await create();
    tokens.close();
    await expect(tokens.getAccessToken()).rejects.toBeInstanceOf(SignInRequiredError);
    await expect(tokens.refreshAfterUnauthorized('access-0')).rejects.toBeInstanceOf(SignInRequiredError);
    expect(await store.get(KEY)).toBeDefined();
  });
});
