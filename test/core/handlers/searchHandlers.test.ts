// The search channels over a real account session (real SQLite) and the real reference service
// as the remote instance: events pushed in order, filters checked at the door with where, the
// token kept in the secret store and never in settings.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import type { AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { MemorySecretStore } from '../../../electron/core/auth/secrets/MemorySecretStore.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { createSearchHandlers } from '../../../electron/core/handlers/searchHandlers.ts';
import { AccountSession } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession } from '../../../electron/core/session/CurrentSession.ts';
import { SettingsStore } from '../../../electron/core/settings/SettingsStore.ts';
import { startService, type RunningService } from '../../../server/app.ts';
import { CHANNEL_NAMES, type EventPayload } from '../../../shared/ipc/index.ts';
import { item, snapshot } from '../helpers/fixtures.ts';
import { DEFAULT_SETTINGS } from '../../support/settings.ts';

const ALICE = { accountId: 'a'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: 'alice@example.com' };
const A = 'alice@example.com';
const noToken = () => Promise.reject(new SignInRequiredError('Sign in to sync.'));

let service: RunningService;
const dirs: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'search-handlers-service-'));
  dirs.push(dataDir);
  service = await startService({ port: 0, dataDir, logLevel: 'silent', demo: true });
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await service.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function core(options: { signedIn?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'search-handlers-'));
  dirs.push(dataDir);
  const sessions = new CurrentSession({
    open: (account) => AccountSession.open({ dataDir, account, apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: noToken, refreshAfterUnauthorized: noToken } }),
  });
  if (options.signedIn !== false) {
    await sessions.apply({ state: 'sign-in-needed', account: ALICE, warning: undefined, error: undefined } satisfies AuthStatus);
    const ids = (await service.store.listBreaches()).slice(0, 3);
    snapshot(
      sessions.require().db,
      ids.map((b) => item({ id: b.id, domain: b.domain, dataClasses: b.dataClasses, accounts: { [A]: [] } })),
      '"v1"',
    );
  }
  const settings = new SettingsStore(dataDir, DEFAULT_SETTINGS);
  const secrets = new MemorySecretStore();
  const events: EventPayload<'search-event'>[] = [];
  const search = createSearchHandlers({ sessions, settings, secrets, emit: (payload) => events.push(payload) });
  const { close, indexOpen, ...handlers } = search;
  const unanswered = Object.fromEntries(CHANNEL_NAMES.map((channel) => [channel, () => Promise.reject(new Error(`${channel} is not part of this test`))]));
  const router = new Router(combineHandlers({ ...unanswered, ...handlers } as never), { validateResults: true });
  cleanups.push(close, () => sessions.close());
  return { router, events, settings, secrets, sessions, indexOpen, close };
}

describe('search channels', () => {
  it('embedded: pushes the chunks, then the answer in pieces, for this request only', async () => {
    const { router, events, sessions, indexOpen, close } = await core();
    expect(indexOpen()).toBe(false);
    const [first] = (await import('../../../electron/core/db/breachQueries.ts')).listBreaches(sessions.require().db);
    const result = await router.invoke('search-run', { requestId: 'r1', query: first!.domain, answer: true });
    expect(result.engine).toBe('embedded');
    expect(result.chunks[0]!.item.key).toBe(`breaches/${first!.id}`);
    expect(result.answer?.kind).toBe('extractive');
    expect(events[0]).toMatchObject({ requestId: 'r1', event: { type: 'chunks', answerKind: 'extractive' } });
    expect(events.slice(1).every((e) => e.requestId === 'r1' && e.event.type === 'delta')).toBe(true);
    expect(
      events
        .slice(1)
        .map((e) => (e.event.type === 'delta' ? e.event.text : ''))
        .join(''),
    ).toBe(result.answer!.text);
    // The index the search opened is let go when the handlers close (sign-out closes them).
    expect(indexOpen()).toBe(true);
    close();
    expect(indexOpen()).toBe(false);
  });

  it('refuses a filter the engine cannot run, naming where, as invalid-arguments', async () => {
    const { router } = await core();
    const answer = await router.dispatch({ type: 'request', id: 1, channel: 'search-run', args: { requestId: 'r', query: 'a', filters: { breachDate: { $gt: '2020' } } } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments', issues: [{ path: '/filters/breachDate/$gt', message: expect.stringContaining('integer number of seconds') }] } });
  });

  it('asks for a sign-in when there is no local data to search', async () => {
    const { router } = await core({ signedIn: false });
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'search-run', args: { requestId: 'r', query: 'a' } })).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });

  it('remote: keeps the token in the secret store only, sends "only mine" as key $in, and reads refusals', async () => {
    const { router, settings, secrets, sessions } = await core();
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'search-run', args: { requestId: 'r', engine: 'remote', query: 'a' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments', message: expect.stringContaining('Add a remote search instance') },
    });
    const { token } = await service.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] });
    const instance = { baseUrl: `${service.url}/client/v4`, accountId: 'local', name: 'breaches', legacy: false };
    expect(await router.invoke('search-remote-set', { ...instance, token })).toEqual({ instance, hasToken: true });
    expect(JSON.stringify(settings.get())).not.toContain(token);
    expect(await secrets.get({ issuer: `${service.url}/client/v4/accounts/local`, subject: 'ai-search-token:breaches' })).toBe(token);

    const mine = (await import('../../../electron/core/db/breachQueries.ts')).listBreaches(sessions.require().db).map((b) => `breaches/${b.id}`);
    const result = await router.invoke('search-run', { requestId: 'r2', engine: 'remote', query: '', onlyMine: true, filters: { isSensitive: false }, maxResults: 50 });
    expect(result.filters).toEqual({ isSensitive: false, key: { $in: mine } });
    const sensitive = new Set((await service.store.listBreaches()).filter((b) => b.isSensitive).map((b) => `breaches/${b.id}`));
    expect(result.chunks.map((c) => c.item.key).sort()).toEqual(mine.filter((key) => !sensitive.has(key)).sort());

    const bad = await router.dispatch({ type: 'request', id: 2, channel: 'search-run', args: { requestId: 'r3', engine: 'remote', query: 'a', filters: { colour: 'red' } } });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid-arguments', message: expect.stringContaining('/filters/colour: unknown field "colour"') } });
    await router.invoke('search-remote-set', { ...instance, baseUrl: 'http://127.0.0.1:9/client/v4' });
    const down = await router.dispatch({ type: 'request', id: 3, channel: 'search-run', args: { requestId: 'r4', engine: 'remote', query: 'a' } });
    expect(down).toMatchObject({ ok: false, error: { code: 'invalid-arguments', message: expect.stringContaining('No API token') } });
  });

  it("remote: the person's state in a question goes as key $in, and both engines give the same answer and sentence", async () => {
    const { router, sessions } = await core();
    const db = sessions.require().db;
    const breaches = (await service.store.listBreaches()).slice(0, 3);
    // The first breach fixed: every class resolved for the one address.
    snapshot(
      db,
      breaches.map((b, i) => item({ id: b.id, domain: b.domain, dataClasses: b.dataClasses, accounts: { [A]: i === 0 ? b.dataClasses : [] } })),
      '"v2"',
    );
    const { token } = await service.search.tokens.create('local', { scopes: ['ai-search:read', 'ai-search:run'] });
    await router.invoke('search-remote-set', { baseUrl: `${service.url}/client/v4`, accountId: 'local', name: 'breaches', legacy: false, token });
    const question = "how many breaches haven't I fixed?";
    const unfixed = breaches.slice(1).map((b) => `breaches/${b.id}`);
    const online = await router.invoke('search-run', { requestId: 'r5', engine: 'remote', query: question, maxResults: 50 });
    expect(online.filters).toEqual({ isSensitive: false, key: { $in: unfixed } });
    const offline = await router.invoke('search-run', { requestId: 'r6', engine: 'embedded', query: question, maxResults: 50 });
    expect(online.chunks.map((c) => c.item.key).sort()).toEqual(offline.chunks.map((c) => c.item.key).sort());
    expect(offline.sentence).toBe(`${offline.chunks.length} ${offline.chunks.length === 1 ? 'breach' : 'breaches'} match`);
    expect(online.sentence).toBe(offline.sentence);
    expect(offline.chunks.every((c) => unfixed.includes(c.item.key))).toBe(true);
  });

  it("remote: the question's own filter is sent too, under the sensitive policy, so an instance that reads only filters applies it", async () => {
    const { router } = await core();
    const { token } = await service.search.tokens.create('local', { scopes: ['ai-search:read'] });
    await router.invoke('search-remote-set', { baseUrl: `${service.url}/client/v4`, accountId: 'local', name: 'breaches', legacy: false, token });
    const result = await router.invoke('search-run', { requestId: 'r7', engine: 'remote', query: 'sensitive unverified breaches since 2019 with passwords', maxResults: 50 });
    expect(result.filters).toEqual({ isSensitive: false, isVerified: false, dataClasses: { $in: ['Passwords'] }, breachDate: { $gte: Date.parse('2019-01-01T00:00:00Z') / 1000 } });
    expect(result.chunks).toEqual([]);
  });

  it('refuses an invalid instance at the door', async () => {
    const { router } = await core();
    const answer = await router.dispatch({ type: 'request', id: 1, channel: 'search-remote-set', args: { baseUrl: 'ftp://x', accountId: 'a b', name: 'n', legacy: false } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
  });
});
