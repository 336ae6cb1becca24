import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import type { AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { AccountSession, type AccountRef } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession, sessionStepFor } from '../../../electron/core/session/CurrentSession.ts';
import type { SyncReport } from '../../../electron/core/sync/SyncScheduler.ts';

const ALICE = { accountId: 'a'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: 'alice@example.com' };
const BOB = { ...ALICE, accountId: 'b'.repeat(32), subject: 'bob', email: 'bob@example.com' };

function status(state: AuthStatus['state'], account?: typeof ALICE): AuthStatus {
  return { state, account, warning: undefined, error: undefined };
}

describe('sessionStepFor', () => {
  it.each([
    ['opens the account that signed in', status('signed-in', ALICE), 'signed-out', undefined, { close: false, open: true, syncNow: false }],
    ['opens an account that needs a sign-in, for offline review', status('sign-in-needed', ALICE), undefined, undefined, { close: false, open: true, syncNow: false }],
    ['syncs at once when the open account signs in again', status('signed-in', ALICE), 'signing-in', ALICE.accountId, { close: false, open: false, syncNow: true }],
    ['syncs at once when the open account’s sign-in comes back', status('signed-in', ALICE), 'sign-in-needed', ALICE.accountId, { close: false, open: false, syncNow: true }],
    ['does nothing on a repeat of signed-in', status('signed-in', ALICE), 'signed-in', ALICE.accountId, { close: false, open: false, syncNow: false }],
    ['keeps the session while a sign-in is under way', status('signing-in', ALICE), 'sign-in-needed', ALICE.accountId, { close: false, open: false, syncNow: false }],
    ['replaces the session when another account signs in', status('signed-in', BOB), 'signing-in', ALICE.accountId, { close: true, open: true, syncNow: false }],
    ['closes on sign-out', status('signed-out'), 'signed-in', ALICE.accountId, { close: true, open: false, syncNow: false }],
    ['has nothing to close when nothing is open', status('signed-out'), undefined, undefined, { close: false, open: false, syncNow: false }],
  ] as const)('%s', (_name, next, previous, openId, step) => {
    expect(sessionStepFor(next, previous, openId)).toEqual(step);
  });
});

describe('CurrentSession', () => {
  const opened: AccountSession[] = [];
  afterEach(async () => {
    for (const session of opened.splice(0)) await session.close();
  });

  function sessions(dataDir = mkdtempSync(path.join(tmpdir(), 'bm-session-'))) {
    const closed: string[] = [];
    const current = new CurrentSession({
      open: (account: AccountRef) => {
        // Nobody can sign in here: every sync this session runs fails for want of a token.
        const session = AccountSession.open({
          dataDir,
          account,
          apiBaseUrl: 'http://127.0.0.1:9/api/v1',
          tokens: { getAccessToken: () => Promise.reject(new SignInRequiredError('Sign in to sync.')), refreshAfterUnauthorized: () => Promise.reject(new SignInRequiredError('Sign in to sync.')) },
        });
        opened.push(session);
        return session;
      },
      onClosed: () => closed.push('closed'),
    });
    return { current, closed };
  }

  it('has no session, and says why, until an account signs in', async () => {
    const { current } = sessions();
    expect(current.get()).toBeUndefined();
    expect(() => current.require()).toThrow(expect.objectContaining({ code: 'sign-in-required' }));
    await current.apply(status('signed-in', ALICE));
    expect(current.require().account.subject).toBe('alice');
  });

  it('swaps sessions between accounts and closes on sign-out', async () => {
    const { current, closed } = sessions();
    await current.apply(status('signed-in', ALICE));
    const alice = current.get();
    await current.apply(status('signing-in', ALICE));
    await current.apply(status('signed-in', BOB));
    expect(current.get()).not.toBe(alice);
    expect(current.get()?.account.subject).toBe('bob');
    expect(closed).toEqual(['closed']);
    await current.closeIf(ALICE.accountId);
    expect(current.get()?.account.subject).toBe('bob');
    await current.apply(status('signed-out'));
    expect(current.get()).toBeUndefined();
    expect(closed).toEqual(['closed', 'closed']);
  });

  it('runs a sync when the open account signs in again', async () => {
    const { current } = sessions();
    await current.apply(status('sign-in-needed', ALICE));
    const session = current.require();
    const reports: SyncReport[] = [];
    const heard = new Promise<void>((resolve) => session.sync.scheduler.onDidSync((report) => (reports.push(report), resolve())));
    await current.apply(status('signing-in', ALICE));
    expect(reports).toEqual([]);
    await current.apply(status('signed-in', ALICE));
    await heard;
    expect(reports).toMatchObject([{ trigger: 'manual', status: 'sign-in-needed', errorKind: 'auth-needed' }]);
  });
});
