// A toggle's reply must show the breach as `breach-get` does, details feed included: a reply
// without them made the description vanish under the pointer (seen in test/e2e/fix.e2e.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { createResolutionHandlers } from '../../../electron/core/handlers/resolutionHandlers.ts';
import { AccountSession } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession } from '../../../electron/core/session/CurrentSession.ts';
import { DataChanges } from '../../../electron/core/status/DataChanges.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import type { BreachDetails } from '../../../shared/catalog/index.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';
import { item, snapshot } from '../helpers/fixtures.ts';

const A = 'alice@example.com';
const noToken = () => Promise.reject(new SignInRequiredError('Sign in to sync.'));
const open: CurrentSession[] = [];
afterEach(async () => {
  for (const sessions of open.splice(0)) await sessions.close();
});

const ADOBE: BreachDetails = {
  title: 'Adobe',
  domain: 'adobe.example',
  breachDate: '2020-01-01',
  addedDate: '2020-02-01T10:00:00Z',
  modifiedDate: '2020-02-01T10:00:00Z',
  pwnCount: 152_445_165,
  description: 'In October 2013, 153 million Adobe accounts were breached.',
  logoPath: '',
  dataClasses: ['Email addresses', 'Passwords'],
  isVerified: true,
  isFabricated: false,
  isSensitive: false,
  isRetired: false,
  isSpamList: false,
  isMalware: false,
  isStealerLog: false,
};

it('the resolutions-set reply carries the breach details like breach-get', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-reply-'));
  const sessions = new CurrentSession({
    open: (account) => AccountSession.open({ dataDir, account, apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: noToken, refreshAfterUnauthorized: noToken } }),
  });
  open.push(sessions);
  await sessions.apply({ state: 'sign-in-needed', account: { accountId: 'c'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: A }, warning: undefined, error: undefined });
  snapshot(sessions.require().db, [item({ id: 'Adobe', accounts: { [A]: [] } })]);
  const unanswered = Object.fromEntries(CHANNEL_NAMES.map((channel) => [channel, () => Promise.reject(new Error(`${channel} is not part of this test`))]));
  const handlers = createResolutionHandlers({
    sessions,
    marks: new NewBreachMarks(),
    changes: new DataChanges(() => {}),
    details: (ids) => new Map(ids.filter((id) => id === 'Adobe').map((id) => [id, ADOBE])),
  });
  const router = new Router(combineHandlers({ ...unanswered, ...handlers } as never), { validateResults: true });
  const reply = await router.invoke('resolutions-set', { breachId: 'Adobe', dataClasses: ['Passwords'], resolved: true });
  expect(reply.detail.details).toEqual(ADOBE);
  expect(reply.detail.accounts[0]!.cells.Passwords).toMatchObject({ resolved: true, pending: true });
});
