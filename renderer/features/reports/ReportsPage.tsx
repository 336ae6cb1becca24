import { useEffect, useId, useMemo, useState } from 'react';
import { Credit } from '../../components/Credit.tsx';
import { Icon } from '../../components/Icon.tsx';
import { ErrorState, Skeleton } from '../../components/States.tsx';
import { downloadText } from '../../lib/download.ts';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format.ts';
import { inBrowserHost, toUiError } from '../../lib/core.ts';
import { saveReportPdf, useReport } from '../../state/report.ts';
import type { Report, ReportBreach } from '../../../shared/report/report.ts';
import { DemoLabel } from '../checks/DemoLabel.tsx';
import { exportFileName, reportRows, toCsv, toJsonExport } from '../../../shared/report/rows.ts';
import { SensitiveNote } from '../status/SensitiveNote.tsx';

/**
 * Export what the person has: CSV and JSON (breaches × emails × data classes with their state
 * and `resolvedAt`), and the printable report below, which the host's print dialog turns into
 * paper or a PDF (print styles hide everything but the report).
 */
export function ReportsPage() {
  const { report, error, load } = useReport();
  // The desktop app prints to PDF itself; in a browser its print dialog does ("Save as PDF").
  const desktop = !inBrowserHost();
  const [pdf, setPdf] = useState<{ state: 'saving' } | { state: 'saved'; file: string } | { state: 'cancelled' } | { state: 'failed'; message: string }>();
  useEffect(() => {
    void load();
  }, [load]);

  async function saveAsPdf(current: Report) {
    setPdf({ state: 'saving' });
    try {
      const answer = await saveReportPdf(exportFileName(current, 'pdf'));
      setPdf(answer.saved && answer.file ? { state: 'saved', file: answer.file } : { state: 'cancelled' });
    } catch (e) {
      setPdf({ state: 'failed', message: toUiError(e).message });
    }
  }

  return (
    <div className="page reports-page">
      <div className="page-head report-actions">
        <h1 className="page-title">Reports</h1>
        <div className="report-buttons">
          <button type="button" className="button button-small" disabled={!report} onClick={() => report && downloadText(exportFileName(report, 'csv'), 'text/csv;charset=utf-8', toCsv(report))}>
            <Icon name="download" size={14} />
            Export CSV
          </button>
          <button type="button" className="button button-small" disabled={!report} onClick={() => report && downloadText(exportFileName(report, 'json'), 'application/json', toJsonExport(report))}>
            <Icon name="download" size={14} />
            Export JSON
          </button>
          {desktop ? (
            <button type="button" className="button button-small" disabled={!report || pdf?.state === 'saving'} onClick={() => report && void saveAsPdf(report)}>
              <Icon name="download" size={14} />
              {pdf?.state === 'saving' ? 'Saving PDF…' : 'Save as PDF'}
            </button>
          ) : null}
          <button type="button" className="button button-primary button-small" disabled={!report} onClick={() => window.print()}>
            <Icon name="printer" size={14} />
            {desktop ? 'Print' : 'Print or save as PDF'}
          </button>
        </div>
      </div>
      <p className="page-lead report-intro">
        The exports list every breach, email address and exposed data class: whether you fixed it, and when the service recorded it. Changes not sent yet are marked pending.{' '}
        {desktop ? '“Save as PDF” and “Print” use the report below.' : '“Print or save as PDF” prints the report below; choose “Save as PDF” as the printer for a file.'}
      </p>
      <SensitiveNote hidden={report?.hiddenSensitive} />
      <p className={`report-pdf-status ${pdf?.state === 'failed' ? 'field-error' : 'form-note'}`} role={pdf?.state === 'failed' ? 'alert' : 'status'}>
        {pdf?.state === 'saved'
          ? `Saved the report to ${pdf.file}.`
          : pdf?.state === 'cancelled'
            ? 'Not saved: the save dialog was closed.'
            : pdf?.state === 'failed'
              ? `The PDF wasn’t saved: ${pdf.message}`
              : ''}
      </p>
      {error && !report ? (
        <ErrorState title="The report couldn’t be made" message={error} onRetry={() => void load()} />
      ) : report ? (
        <PrintableReport report={report} />
      ) : (
        <Skeleton lines={10} className="card" />
      )}
    </div>
  );
}

function PrintableReport({ report }: { report: Report }) {
  const titleId = useId();
  const rows = useMemo(() => reportRows(report), [report]);
  const fixed = rows.filter((row) => row.resolved).length;
  const emails = new Set(rows.map((row) => row.email)).size;
  return (
    <article className="card printable-report" aria-labelledby={titleId}>
      <header className="report-header">
        <h2 id={titleId} className="report-title">
          {report.demo ? 'Breach Monitor report — demo data' : 'Breach Monitor report'}
        </h2>
        {report.demo ? <DemoLabel print /> : null}
        <p className="report-meta">
          {report.account ? <>For {report.account} · </> : null}
          Made <time dateTime={report.generatedAt}>{formatDateTime(report.generatedAt)}</time>
        </p>
        <p className="report-summary">
          {plural(report.breaches.length, 'breach', 'breaches')} · {plural(emails, 'email address', 'email addresses')} · {formatCount(fixed)} of {plural(rows.length, 'item')} fixed
        </p>
      </header>
      {report.breaches.length === 0 ? <p className="card-empty">No breaches in your data.</p> : report.breaches.map((item) => <BreachSection key={item.breach.id} item={item} />)}
      {report.includesHibp ? <Credit className="report-credit" /> : null}
    </article>
  );
}

function BreachSection({ item }: { item: ReportBreach }) {
  const { breach, accounts } = item;
  const headingId = useId();
  return (
    <section className="report-breach" aria-labelledby={headingId}>
      <h3 id={headingId} className="report-breach-title">
        {breach.id}
        {breach.isSensitive ? <span className="badge badge-sensitive">Sensitive</span> : null}
      </h3>
      <p className="report-breach-meta">
        {breach.domain ? <span className="domain">{breach.domain}</span> : 'No domain named'} · breached <time dateTime={breach.breachDate}>{formatDate(breach.breachDate)}</time>
      </p>
      <table className="report-table">
        <caption className="visually-hidden">Data classes of {breach.id} per email address</caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Data class</th>
            <th scope="col">State</th>
            <th scope="col">Fixed on</th>
          </tr>
        </thead>
        <tbody>
          {accounts.flatMap((account) =>
            breach.dataClasses.map((name, index) => {
              const cell = account.cells[name];
              return (
                <tr key={`${account.email}|${name}`} className={index === 0 ? 'report-email-first' : undefined}>
                  <td className="report-email">{index === 0 ? account.email : <span className="visually-hidden">{account.email}</span>}</td>
                  <td>{name}</td>
                  <td className={cell?.resolved ? 'report-state-done' : 'report-state-todo'}>{cell?.resolved ? (cell.pending ? 'Fixed (not sent yet)' : 'Fixed') : 'Not fixed'}</td>
                  <td>{cell?.resolved && cell.resolvedAt ? <time dateTime={cell.resolvedAt}>{formatDate(cell.resolvedAt)}</time> : ''}</td>
                </tr>
              );
            }),
          )}
        </tbody>
      </table>
    </section>
  );
}
