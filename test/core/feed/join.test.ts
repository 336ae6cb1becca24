// The breach list and detail joined to the local copy of the details feed, over a real account
// session and a real details database (no network: the copy is written directly).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BreachDetails } from '../../../shared/catalog/index.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import type { AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { DetailsStore } from '../../../electron/core/feed/DetailsStore.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { AccountSession } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession } from '../../../electron/core/session/CurrentSession.ts';
import { createBreachHandlers } from '../../../electron/core/handlers/breachHandlers.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import { item, snapshot } from '../helpers/fixtures.ts';

const ALICE = { accountId: 'b'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: 'alice@example.com' };
const noToken = () => Promise.reject(new SignInRequiredError('Sign in to sync.'));
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const ADOBE = BreachDetails.parse({
  title: 'Adobe',
  domain: 'adobe.example',
  breachDate: '2013-10-04',
  addedDate: '2013-12-04T00:00:00Z',
  modifiedDate: '2013-12-04T00:00:00Z',
  pwnCount: 152445165,
  description: 'In October 2013, <a href="https://example.org/">153 million</a> accounts…',
  logoPath: 'https://example.org/Adobe.png',
  dataClasses: ['Email addresses', 'Passwords'],
  isVerified: true,
  isFabricated: false,
  isSensitive: false,
  isRetired: false,
  isSpamList: false,
  isMalware: false,
  isStealerLog: false,
});

describe('breach views joined to the details feed', () => {
  it('carry the details of breaches the feed has, and none for the others', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-feed-join-'));
    const details = new DetailsStore(path.join(dataDir, 'catalog-details.db'));
    const sessions = new CurrentSession({
      open: (account) => AccountSession.open({ dataDir, account, apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: noToken, refreshAfterUnauthorized: noToken } }),
    });
    cleanup.push(
      () => rmSync(dataDir, { recursive: true, force: true }),
      () => details.close(),
      () => sessions.close(),
    );
    await sessions.apply({ state: 'sign-in-needed', account: ALICE, warning: undefined, error: undefined } satisfies AuthStatus);
    snapshot(sessions.require().db, [item({ id: 'Adobe', accounts: { 'alice@example.com': [] } }), item({ id: 'Canva', domain: 'canva.example', accounts: { 'alice@example.com': [] } })], '"v1"');
    details.replace('http://127.0.0.1:9/rtdb', { Adobe: ADOBE }, '"e1"');

    const unanswered = Object.fromEntries(
      CHANNEL_NAMES.map((channel) => [
        channel,
        () => {
          throw new Error(`${channel} is not part of this test`);
        },
      ]),
    );
    const router = new Router(
      combineHandlers({ ...unanswered, ...createBreachHandlers({ sessions, marks: new NewBreachMarks(), details: (ids) => details.getMany(ids), flaggedIds: () => details.flaggedIds() }) } as never),
      { validateResults: true },
    );
    const list = await router.invoke('breaches-list', {});
    expect(list.rows.map((row) => [row.breach.id, row.details?.title])).toEqual([
      ['Adobe', 'Adobe'],
      ['Canva', undefined],
    ]);
    expect((await router.invoke('breach-get', { id: 'Adobe' })).details).toEqual(ADOBE);
    expect((await router.invoke('breach-get', { id: 'Canva' })).details).toBeUndefined();

    // A spam list, fabricated or retired breach is left out of the list (and its total) unless asked for.
    details.replace('http://127.0.0.1:9/rtdb', { Adobe: ADOBE, Canva: { ...ADOBE, title: 'Canva', isSpamList: true } }, '"e2"');
    expect(details.flaggedIds()).toEqual(['Canva']);
    const hidden = await router.invoke('breaches-list', {});
    expect([hidden.total, hidden.rows.map((row) => row.breach.id)]).toEqual([1, ['Adobe']]);
    const shown = await router.invoke('breaches-list', { includeFlagged: true });
    expect([shown.total, shown.rows.map((row) => row.breach.id)]).toEqual([2, ['Adobe', 'Canva']]);
    expect((await router.invoke('breach-get', { id: 'Canva' })).details?.isSpamList).toBe(true);
  });
});
