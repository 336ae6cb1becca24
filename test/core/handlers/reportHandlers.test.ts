// The report and the guided fix's "done" over a real account session (real SQLite, real outbox).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SavedPdf } from '../../../shared/ipc/index.ts';
import type { HostBridge } from '../../../electron/core/host.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { SignInRequiredError } from '../../../electron/core/api/AccessTokenSource.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';
import { combineHandlers } from '../../../electron/core/handlers/combineHandlers.ts';
import { recordBreachDataHeaders } from '../../../electron/core/db/breachDataQueries.ts';
import { createReportHandlers } from '../../../electron/core/handlers/reportHandlers.ts';
import { AccountSession } from '../../../electron/core/session/AccountSession.ts';
import { CurrentSession } from '../../../electron/core/session/CurrentSession.ts';
import { DataChanges } from '../../../electron/core/status/DataChanges.ts';
import type { DataChange } from '../../../shared/ipc/index.ts';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';
import { reportRows, summarizeReport } from '../../../shared/report/index.ts';
import { item, snapshot } from '../helpers/fixtures.ts';

const ALICE = { accountId: 'b'.repeat(32), issuer: 'http://127.0.0.1:1', subject: 'alice', email: 'alice@example.com' };
const A = 'alice@example.com';
const B = 'alice.work@example.com';
const noToken = () => Promise.reject(new SignInRequiredError('Sign in to sync.'));
const NOW = Date.parse('2026-11-24T09:00:30Z');

const open: CurrentSession[] = [];
afterEach(async () => {
  for (const sessions of open.splice(0)) await sessions.close();
});

async function core(options: { signedIn?: boolean; host?: Pick<HostBridge, 'savePdf'>; showSensitive?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bm-report-'));
  const sessions = new CurrentSession({
    open: (account) => AccountSession.open({ dataDir, account, apiBaseUrl: 'http://127.0.0.1:9/api/v1', tokens: { getAccessToken: noToken, refreshAfterUnauthorized: noToken } }),
  });
  open.push(sessions);
  if (options.signedIn !== false) {
    await sessions.apply({ state: 'sign-in-needed', account: ALICE, warning: undefined, error: undefined });
    snapshot(sessions.require().db, [
      item({ id: 'Adobe', domain: 'adobe.com', dataClasses: ['Email addresses', 'Password hints', 'Passwords'], accounts: { [A]: ['Passwords'], [B]: [] } }),
      item({ id: 'Secret', isSensitive: true, breachDate: '2019-01-01', dataClasses: ['Names'], accounts: { [A]: [] } }),
    ]);
  }
  const unanswered = Object.fromEntries(CHANNEL_NAMES.map((channel) => [channel, () => Promise.reject(new Error(`${channel} is not part of this test`))]));
  const announced: DataChange[] = [];
  const changes = new DataChanges((change) => announced.push(change));
  const router = new Router(
    combineHandlers({
      ...unanswered,
      ...createReportHandlers({ sessions, changes, accountEmail: () => A, host: options.host ?? {}, policy: () => ({ showSensitive: options.showSensitive === true }), now: () => NOW }),
    } as never),
    {
      validateResults: true,
    },
  );
  return { router, sessions, announced };
}

describe('report-get', () => {
  it('leaves sensitive breaches out unless the person opted in, and says how many (the one sensitive policy)', async () => {
    const { router } = await core();
    const report = await router.invoke('report-get', {});
    expect(report.breaches.map((entry) => entry.breach.id)).toEqual(['Adobe']);
    expect(report.hiddenSensitive).toBe(1);
    expect(reportRows(report).some((row) => row.breach === 'Secret')).toBe(false);
  });

  it('opted in: holds every breach (sensitive included) × email × data class with resolvedAt', async () => {
    const { router } = await core({ showSensitive: true });
    const report = await router.invoke('report-get', {});
    expect(report.hiddenSensitive).toBeUndefined();
    expect(report).toMatchObject({ generatedAt: '2026-11-24T09:00:00Z', account: A, includesHibp: true });
    expect(report.breaches.map((entry) => entry.breach.id)).toEqual(['Adobe', 'Secret']);
    const rows = reportRows(report);
    expect(rows).toHaveLength(3 * 2 + 1);
    expect(rows.find((row) => row.email === A && row.dataClass === 'Passwords')).toMatchObject({ resolved: true, resolvedAt: '2025-01-01T00:00:00Z', pending: false });
  });

  it('signed out: an empty report, not an error', async () => {
    const { router } = await core({ signedIn: false });
    expect(await router.invoke('report-get', {})).toMatchObject({ breaches: [], includesHibp: false });
  });
});

describe('report-summary', () => {
  it('answers what summarizing report-get answers (from aggregates, not the report), queued changes included, under both policies', async () => {
    for (const showSensitive of [false, true]) {
      const { router } = await core({ showSensitive });
      await router.invoke('fix-apply', { intents: [{ breachId: 'Adobe', emails: [B], dataClasses: ['Passwords'] }], resolved: true });
      const summary = await router.invoke('report-summary', {});
      expect(summary).toEqual(summarizeReport(await router.invoke('report-get', {}), NOW));
      // Passwords: A's confirmed (2025, before the twelve weeks), B's queued (no time yet); hints left for both.
      expect(summary.next).toMatchObject({ id: 'passwords', unresolved: 2, breaches: 1 });
      expect(summary.progress).toMatchObject({ before: 1, unknownDate: 1 });
    }
  });

  it('signed out: nothing next, empty weeks', async () => {
    const { router } = await core({ signedIn: false });
    const summary = await router.invoke('report-summary', {});
    expect(summary.next).toBeUndefined();
    expect(summary.progress.weeks.every((week) => week.count === 0)).toBe(true);
  });
});

describe('fix-apply', () => {
  it('records every intent in one outbox record; the report shows them queued at once', async () => {
    const { router, sessions, announced } = await core();
    const answer = await router.invoke('fix-apply', {
      intents: [
        { breachId: 'Adobe', emails: [A], dataClasses: ['Password hints'] },
        { breachId: 'Adobe', emails: [B], dataClasses: ['Passwords', 'Password hints'] },
      ],
    });
    expect(answer).toEqual({ changed: 3 });
    // One event for the batch, naming its breach once.
    expect(announced).toEqual([{ reason: 'resolution', breachIds: ['Adobe'], revision: 1 }]);
    expect(sessions.require().sync.outbox.summary()).toMatchObject({ pending: 3 });
    const rows = reportRows(await router.invoke('report-get', {})).filter((row) => row.breach === 'Adobe' && row.dataClass !== 'Email addresses');
    expect(rows.every((row) => row.resolved)).toBe(true);
    expect(rows.filter((row) => row.pending)).toHaveLength(3);
  });

  it('all or nothing: one unknown target refuses the whole batch as not-found', async () => {
    const { router, sessions, announced } = await core();
    const answer = await router.dispatch({
      type: 'request',
      id: 1,
      channel: 'fix-apply',
      args: {
        intents: [
          { breachId: 'Adobe', emails: [A], dataClasses: ['Password hints'] },
          { breachId: 'Adobe', emails: ['mallory@example.com'], dataClasses: ['Passwords'] },
        ],
      },
    });
    expect(answer).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(sessions.require().sync.outbox.summary()).toMatchObject({ pending: 0 });
    expect(announced).toEqual([]);
  });

  it('refuses malformed arguments with the path of the problem', async () => {
    const { router } = await core();
    const answer = await router.dispatch({ type: 'request', id: 1, channel: 'fix-apply', args: { intents: [{ breachId: 'Adobe', emails: [], dataClasses: ['Passwords'] }] } });
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(JSON.stringify(answer)).toContain('emails');
  });
});

describe('report-save-pdf', () => {
  it('asks the host to print to PDF with the file name, and says where it went or that it was cancelled', async () => {
    const asked: string[] = [];
    const answers: SavedPdf[] = [{ file: '/home/alice/Documents/breach-monitor-report-2026-11-24.pdf' }, undefined];
    const { router } = await core({ host: { savePdf: async (fileName) => (asked.push(fileName), answers.shift()) } });
    expect(await router.invoke('report-save-pdf', { fileName: 'breach-monitor-report-2026-11-24.pdf' })).toEqual({ saved: true, file: '/home/alice/Documents/breach-monitor-report-2026-11-24.pdf' });
    expect(await router.invoke('report-save-pdf', { fileName: 'breach-monitor-report-2026-11-24.pdf' })).toEqual({ saved: false });
    expect(asked).toEqual(['breach-monitor-report-2026-11-24.pdf', 'breach-monitor-report-2026-11-24.pdf']);
  });

  it('refuses a path for a name, and answers "unavailable" in a host without print-to-PDF', async () => {
    const { router } = await core();
    for (const fileName of ['../report.pdf', '/tmp/report.pdf', 'report.html', 'a\\b.pdf'])
      expect(await router.dispatch({ type: 'request', id: 1, channel: 'report-save-pdf', args: { fileName } })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } });
    expect(await router.dispatch({ type: 'request', id: 2, channel: 'report-save-pdf', args: { fileName: 'report.pdf' } })).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringContaining('Save as PDF') },
    });
  });
});

describe("the report's credit follows what the service said of its data", () => {
  it('credits Have I Been Pwned for `breach-data: hibp` and a service that says nothing, never for demo data', async () => {
    const { router, sessions } = await core();
    // No header recorded yet: a base-contract service, whose catalog is Have I Been Pwned's.
    expect(await router.invoke('report-get', {})).toMatchObject({ includesHibp: true });
    const { db } = sessions.require();
    const record = (source: 'hibp' | 'demo') => db.transaction(() => recordBreachDataHeaders(db, { source, pending: 0 }, '2026-11-24T09:00:00Z')).immediate();
    record('hibp');
    expect(await router.invoke('report-get', {})).toMatchObject({ includesHibp: true });
    // Real breach ids under `breach-data: demo`: the exposures are invented, so nothing of them is credited.
    record('demo');
    const demo = await router.invoke('report-get', {});
    expect(demo).toMatchObject({ includesHibp: false, demo: true });
    expect(demo.breaches.map((entry) => entry.breach.id)).toEqual(['Adobe']);
  });

  it('credits nothing when there is nothing to show', async () => {
    const { router } = await core({ signedIn: false });
    expect(await router.invoke('report-get', {})).toMatchObject({ includesHibp: false, breaches: [] });
  });
});
