// Each feature's channel slice on its own, over a real account session (real SQLite, real
// outbox and scheduler), without Chromium or the reference service: nothing here can sign in,
// so every sync these sessions try fails for want of a token and leaves the data as it is.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import type { AuthStatus } from '../../../electron/core/auth/AuthService.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { createResolutionHandlers } from '../../../electron/core/handlers/resolutionHandlers.ts';
import { AccountSession } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession } from '../../../electron/core/session/CurrentSession.ts';
import { DataChanges } from '../../../electron/core/status/DataChanges.ts';
import { createSyncHandlers } from '../../../electron/core/handlers/syncHandlers.ts';
import { SyncStatusModel } from '../../../electron/core/sync/SyncStatusModel.ts';
import { createBreachHandlers } from '../../../electron/core/handlers/breachHandlers.ts';
import { NewBreachMarks } from '../../../electron/core/views/NewBreachMarks.ts';
import { CHANNEL_NAMES, type DataChange } from '../../../shared/ipc/index.ts';
import { item, snapshot } from '../helpers/fixtures.ts';

const ALICE = { accountId: 'a'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: 'alice@example.com' };
const A = 'alice@example.com';
const noToken = () => Promise.reject(new SignInRequiredError('Sign in to sync.'));

const open: CurrentSession[] = [];
afterEach(async () => {
  for (const sessions of open.splice(0)) await sessions.close();
});

function unanswered(): Record<string, () => never> {
  return Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      () => {
        throw new Error(`${channel} is not part of this test`);
      },
    ]),
  );
}

/** The breach, resolution and sync slices over one account with two local breaches. */
async function core(options: { signedIn?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-handlers-'));
  const sessions = new CurrentSession({
    open: (account) => AccountSession.open({ dataDir, account, apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: noToken, refreshAfterUnauthorized: noToken } }),
  });
  open.push(sessions);
  const marks = new NewBreachMarks();
  const model = new SyncStatusModel();
  const announced: DataChange[] = [];
  const changes = new DataChanges((change) => announced.push(change));
  if (options.signedIn !== false) {
    await sessions.apply({ state: 'sign-in-needed', account: ALICE, warning: undefined, error: undefined } satisfies AuthStatus);
    const db = sessions.require().db;
    snapshot(db, [item({ id: 'Adobe', dataClasses: ['Email addresses', 'Passwords'], accounts: { [A]: [] } })], '"v1"');
    marks.observeReport(db, {
      trigger: 'manual',
      status: 'ok',
      push: undefined,
      pull: undefined,
      startedAt: 0,
      finishedAt: 1,
      diff: snapshot(
        db,
        [item({ id: 'Adobe', dataClasses: ['Email addresses', 'Passwords'], accounts: { [A]: [] } }), item({ id: 'Canva', domain: 'canva.example', accounts: { [A]: ['Passwords'] } })],
        '"v2"',
      ),
    });
  }
  const statusView = () => {
    const session = sessions.get();
    return model.view({ online: true, outbox: session?.sync.outbox.summary(), lastReport: session?.sync.scheduler.lastReport, db: session?.db });
  };
  const router = new Router(
    combineHandlers({
      ...unanswered(),
      ...createBreachHandlers({ sessions, marks }),
      ...createResolutionHandlers({ sessions, marks, changes }),
      ...createSyncHandlers({ sessions, statusView }),
    } as never),
    { validateResults: true },
  );
  return { router, sessions, announced };
}

describe('breach handlers', () => {
  it('list, detail, suggestions and overview read the open account, with its "New" marks', async () => {
    const { router } = await core();
    const list = await router.invoke('breaches-list', {});
    expect(list.rows.map((row) => [row.breach.id, row.isNew])).toEqual([
      ['Adobe', false],
      ['Canva', true],
    ]);
    expect(await router.invoke('breach-get', { id: 'Canva' })).toMatchObject({ isNew: true, breach: { id: 'Canva' } });
    expect(await router.invoke('breaches-domains', {})).toEqual(['adobe.example', 'canva.example']);
    expect(await router.invoke('breaches-data-classes', {})).toEqual(['Email addresses', 'Passwords']);
    expect(await router.invoke('overview-get', {})).toMatchObject({ breaches: 2, unresolvedByEmail: [{ email: A, count: 3 }] });
  });

  it('applies the advanced filter with the search filter engine, beside the other filters', async () => {
    const { router } = await core();
    const ids = async (query: Record<string, unknown>) => (await router.invoke('breaches-list', query as never)).rows.map((row) => row.breach.id);
    // Both leaked email addresses and passwords (the fixture's default); list fields match case-insensitively.
    expect(await ids({ metadataFilter: { dataClasses: 'email addresses' } })).toEqual(['Adobe', 'Canva']);
    expect(await ids({ metadataFilter: { dataClasses: { $nin: ['Passwords'] } } })).toEqual([]);
    expect(await ids({ metadataFilter: { domain: { $ne: 'adobe.example' } } })).toEqual(['Canva']);
    expect(await ids({ metadataFilter: { domain: { $in: ['canva.example', 'adobe.example'] } }, text: 'can' })).toEqual(['Canva']);
    expect(await ids({ metadataFilter: { key: 'breaches/Adobe' } })).toEqual(['Adobe']);
    expect(await ids({ metadataFilter: {} })).toEqual(['Adobe', 'Canva']);
    expect((await router.invoke('breaches-list', { metadataFilter: { isSensitive: true } } as never)).total).toBe(0);
  });

  it('refuses a bad advanced filter, saying what and where', async () => {
    const { router } = await core();
    const answer = await router.dispatch({ type: 'request', id: 1, channel: 'breaches-list', args: { metadataFilter: { breachDate: { $gt: '2020' }, colour: 'red' } } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    const issues = (answer as { error: { issues: { path: string; message: string }[] } }).error.issues;
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'metadataFilter.breachDate.$gt', message: expect.stringMatching(/seconds/) as string }),
        expect.objectContaining({ path: 'metadataFilter.colour', message: expect.stringMatching(/unknown field "colour"/) as string }),
      ]),
    );
    expect(await router.dispatch({ type: 'request', id: 2, channel: 'breaches-list', args: { metadataFilter: ['dataClasses'] } })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
  });

  it('the list says how many sensitive breaches it leaves out, under the same filters', async () => {
    const { router, sessions } = await core();
    snapshot(
      sessions.require().db,
      [
        item({ id: 'Adobe', dataClasses: ['Email addresses', 'Passwords'], accounts: { [A]: [] } }),
        item({ id: 'Secret', domain: 'secret.example', isSensitive: true, dataClasses: ['Passwords'], accounts: { [A]: [] } }),
        item({ id: 'Hidden', domain: 'hidden.example', isSensitive: true, dataClasses: ['Names'], accounts: { [A]: [] } }),
      ],
      '"v3"',
    );
    expect(await router.invoke('breaches-list', {})).toMatchObject({ total: 1, hiddenSensitive: 2 });
    expect(await router.invoke('breaches-list', { dataClasses: ['Passwords'] })).toMatchObject({ total: 1, hiddenSensitive: 1 });
    expect(await router.invoke('breaches-list', { includeSensitive: true })).toMatchObject({ total: 3, hiddenSensitive: 0 });
    // The overview follows the one policy: sensitive breaches left out of its figures, their number said.
    expect(await router.invoke('overview-get', {})).toMatchObject({ breaches: 1, sensitiveBreaches: 2 });
    expect((await router.invoke('overview-get', {})).sensitiveShown).toBeUndefined();
  });

  it('answers a breach the account does not have with not-found', async () => {
    const { router } = await core();
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'breach-get', args: { id: 'Nope' } })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it('shows empty views, not errors, while signed out — except the detail, which asks for a sign-in', async () => {
    const { router } = await core({ signedIn: false });
    expect(await router.invoke('breaches-list', {})).toEqual({ rows: [], total: 0, unresolvedByDataClass: {}, hiddenSensitive: 0, includesHibp: false });
    expect(await router.invoke('breaches-domains', {})).toEqual([]);
    expect(await router.invoke('overview-get', {})).toEqual({ breaches: 0, sensitiveBreaches: 0, includesHibp: false, unresolvedByDataClass: [], unresolvedByEmail: [], breachesByYear: [] });
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'breach-get', args: { id: 'Adobe' } })).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });
});

describe('resolution handlers', () => {
  it('records a toggle at once, answers with the breach as it now shows, and announces it once', async () => {
    const { router, announced } = await core();
    const reply = await router.invoke('resolutions-set', { breachId: 'Adobe', dataClasses: ['Passwords'], resolved: true });
    expect(reply.detail.accounts[0]!.cells.Passwords).toMatchObject({ resolved: true, pending: true });
    expect(reply.detail).toEqual(await router.invoke('breach-get', { id: 'Adobe' }));
    expect(announced).toEqual([{ reason: 'resolution', breachIds: ['Adobe'], revision: reply.revision }]);
    expect(await router.invoke('sync-status', {})).toMatchObject({ pending: 1, failed: 0 });
  });

  it('takes the outbox’s own schema: omitted data classes mean all of the breach’s', async () => {
    const { router } = await core();
    const reply = await router.invoke('resolutions-set', { breachId: 'Adobe', resolved: true });
    expect(Object.values(reply.detail.accounts[0]!.cells).every((cell) => cell.resolved)).toBe(true);
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'resolutions-set', args: { breachId: 'Adobe', emails: ['not-an-email'], resolved: true } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments', issues: [{ path: 'emails.0' }] },
    });
  });

  it('refuses a toggle of something the account does not have, as not-found, and announces nothing', async () => {
    const { router, announced } = await core();
    expect(await router.dispatch({ type: 'request', id: 1, channel: 'resolutions-set', args: { breachId: 'Adobe', dataClasses: ['Shoe sizes'], resolved: true } })).toMatchObject({
      ok: false,
      error: { code: 'not-found' },
    });
    expect(announced).toEqual([]);
  });

  it('retry and discard with nothing failed change nothing; signed out they ask for a sign-in', async () => {
    const { router, announced } = await core();
    expect(await router.invoke('outbox-retry', {})).toEqual({});
    expect(await router.invoke('outbox-discard', { breachId: 'Adobe' })).toEqual({});
    expect(announced).toEqual([]);
    const signedOut = await core({ signedIn: false });
    expect(await signedOut.router.dispatch({ type: 'request', id: 1, channel: 'outbox-retry', args: {} })).toMatchObject({ ok: false, error: { code: 'sign-in-required' } });
  });
});

describe('sync handlers', () => {
  it('"Sync now" runs a sync and answers with the sync line it left', async () => {
    const { router, sessions } = await core();
    const view = await router.invoke('sync-now', {});
    expect(sessions.require().sync.scheduler.lastReport).toMatchObject({ status: 'sign-in-needed', errorKind: 'auth-needed' });
    expect(view).toMatchObject({ phase: 'idle', pending: 0 });
  });

  it('without an account, "Sync now" has nothing to run', async () => {
    const { router } = await core({ signedIn: false });
    expect(await router.invoke('sync-now', {})).toEqual({ online: true, phase: 'idle', pending: 0, failed: 0, seq: expect.any(Number) });
  });
});
