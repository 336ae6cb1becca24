import { storedSource } from '../db/breachDataQueries.ts';
import { HIDE_SENSITIVE, type SensitivePolicy } from '../../../shared/api/index.ts';
import { CoreError } from '../../../shared/ipc/index.ts';
import type { HostBridge } from '../host.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { DataChanges } from '../status/DataChanges.ts';
import type { ReadableDB } from '../db/Interface.ts';
import type { Report } from '../../../shared/report/report.ts';
import { summarizeReport } from '../../../shared/report/summary.ts';
import { queryBreaches } from '../queries/localQueries.ts';
import { summarizeLocal } from '../queries/reportSummary.ts';
import { toBreachDetail } from '../views/breachViews.ts';
import { accountCreditsHibp } from '../checks/hibpCredit.ts';

export interface ReportHandlerDeps {
  sessions: CurrentSession;
  /** Announces the batch as one `data-changed` naming its breaches. */
  changes: DataChanges;
  /** The signed-in account's email, if the provider told it. */
  accountEmail(): string | undefined;
  /** The host's print-to-PDF, where it has one. */
  host: Pick<HostBridge, 'savePdf'>;
  /** The sensitive policy now (the person's setting). */
  policy?: () => SensitivePolicy;
  now?: () => number;
}

/** Every local breach the sensitive policy shows, in the list's default order; the number it left out. */
export function buildReport(db: ReadableDB, options: { account?: string; now: number; policy?: SensitivePolicy }): Report {
  const policy = options.policy ?? HIDE_SENSITIVE;
  const breaches: Report['breaches'] = [];
  const hibp = accountCreditsHibp(db);
  const PAGE = 10_000;
  for (let offset = 0; ; offset += PAGE) {
    const page = queryBreaches(db, { includeSensitive: policy.showSensitive, offset, limit: PAGE });
    for (const item of page.items) {
      const { breach, accounts } = toBreachDetail(item, false, hibp);
      breaches.push({ breach, accounts });
    }
    if (offset + PAGE >= page.total) break;
  }
  return {
    generatedAt: new Date(Math.floor(options.now / 60_000) * 60_000).toISOString().replace('.000Z', 'Z'),
    ...(options.account ? { account: options.account } : {}),
    includesHibp: hibp && breaches.length > 0,
    breaches,
    ...hiddenSensitiveOf(db, policy, breaches.length),
  };
}

/** The report (exports, guided fix, "what to do next") and the guided fix's "done". */
export function createReportHandlers({ sessions, changes, accountEmail, host, policy = () => HIDE_SENSITIVE, now = Date.now }: ReportHandlerDeps) {
  const currentReport = (): Report => {
    const session = sessions.get();
    const account = accountEmail();
    if (!session) return { generatedAt: new Date(Math.floor(now() / 60_000) * 60_000).toISOString().replace('.000Z', 'Z'), ...(account ? { account } : {}), includesHibp: false, breaches: [] };
    const report = buildReport(session.db, { now: now(), policy: policy(), ...(account ? { account } : {}) });
    return storedSource(session.db) === 'demo' ? { ...report, demo: true } : report;
  };
  return {
    'report-get': currentReport,
    // From aggregates, not the report: the overview asks this as it opens, and in the browser host
    // the core's thread is also the one serving the page (queries/reportSummary.ts).
    'report-summary': () => {
      const session = sessions.get();
      return session ? summarizeLocal(session.db, { now: now(), policy: policy() }) : summarizeReport(currentReport(), now());
    },
    'fix-apply': ({ intents, resolved }) => {
      // All or nothing: an unknown breach, email or class throws UnknownTargetError ("not-found") and records nothing.
      const { intents: changed } = sessions.require().sync.outbox.record(intents.map((intent) => ({ ...intent, resolved })));
      changes.changed(
        'resolution',
        intents.map((intent) => intent.breachId),
      );
      return { changed };
    },
    'report-save-pdf': async ({ fileName }) => {
      if (!host.savePdf) throw new CoreError('unavailable', 'Saving a PDF directly needs the desktop app. Use Print and choose “Save as PDF” as the printer.');
      const saved = await host.savePdf(fileName);
      return saved ? { saved: true, file: saved.file } : { saved: false };
    },
  } satisfies HandlerSlice;
}

function hiddenSensitiveOf(db: ReadableDB, policy: SensitivePolicy, shown: number): { hiddenSensitive?: number } {
  if (policy.showSensitive) return {};
  const hidden = queryBreaches(db, { includeSensitive: true, offset: 0, limit: 1 }).total - shown;
  return hidden > 0 ? { hiddenSensitive: hidden } : {};
}
