import type { Report } from './report.ts';

/** One line of the exports: a breach × an email × a data class. */
export interface ReportRow {
  breach: string;
  domain: string;
  breachDate: string;
  sensitive: boolean;
  email: string;
  dataClass: string;
  resolved: boolean;
  /** When the service recorded the resolution; empty while unknown (queued, or another server). */
  resolvedAt: string;
  /** A change of this cell waits in the outbox. */
  pending: boolean;
}

export const CSV_COLUMNS = ['breach', 'domain', 'breachDate', 'sensitive', 'email', 'dataClass', 'resolved', 'resolvedAt', 'pending'] as const satisfies readonly (keyof ReportRow)[];

/** Rows in a stable order: breaches as the report has them, emails and classes as each breach lists them. */
export function reportRows(report: Report): ReportRow[] {
  const rows: ReportRow[] = [];
  for (const { breach, accounts } of report.breaches) {
    for (const account of accounts) {
      for (const dataClass of breach.dataClasses) {
        const cell = account.cells[dataClass];
        rows.push({
          breach: breach.id,
          domain: breach.domain,
          breachDate: breach.breachDate,
          sensitive: breach.isSensitive,
          email: account.email,
          dataClass,
          resolved: cell?.resolved ?? false,
          resolvedAt: cell?.resolved && cell.resolvedAt ? cell.resolvedAt : '',
          pending: cell?.pending ?? false,
        });
      }
    }
  }
  return rows;
}

/**
 * RFC 4180: comma separated, CRLF line ends, fields quoted when they hold a quote, comma or line
 * break. A field a spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) gets a
 * leading apostrophe: breach names come from a third party's catalog.
 */
export function csvField(value: string | boolean): string {
  let text = typeof value === 'boolean' ? (value ? 'true' : 'false') : value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * Invented exposures say so inside the file, where a spreadsheet shows it: a first column,
 * `notice`, holding {@link DEMO_NOTICE} on every row, so no row copied or filtered elsewhere
 * loses it. A column rather than a line above the header: the first line stays the header, so
 * tools that read the columns by name read a demo file as they read a real one. Real data keeps
 * the columns it always had.
 */
export const CSV_DEMO_COLUMN = 'notice';

export function toCsv(report: Report): string {
  const notice = report.demo ? [CSV_DEMO_COLUMN] : [];
  const lines = [[...notice, ...CSV_COLUMNS].join(',')];
  for (const row of reportRows(report)) lines.push([...(report.demo ? [csvField(DEMO_NOTICE)] : []), ...CSV_COLUMNS.map((column) => csvField(row[column]))].join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** The JSON export: what it is, when, whose, the credit when due, and the same rows as the CSV. */
export function toJsonExport(report: Report): string {
  return `${JSON.stringify(
    {
      format: 'breach-monitor-report',
      version: 1,
      generatedAt: report.generatedAt,
      ...(report.account ? { account: report.account } : {}),
      ...(report.demo ? { demo: true, notice: DEMO_NOTICE } : {}),
      ...(report.includesHibp ? { credit: 'Breach data: Have I Been Pwned (haveibeenpwned.com), CC BY 4.0' } : {}),
      rows: reportRows(report),
    },
    null,
    2,
  )}\n`;
}

/** The label of invented exposures, in every export of them. */
export const DEMO_NOTICE = 'Demo data — these breaches are invented';

/** `breach-monitor-report-2026-11-24.csv`; `breach-monitor-DEMO-report-…` for invented data (the name says it before the file is opened; inside, the exports say it too). */
export function exportFileName(report: Report, extension: 'csv' | 'json' | 'html' | 'pdf'): string {
  return `breach-monitor-${report.demo ? 'DEMO-' : ''}report-${report.generatedAt.slice(0, 10)}.${extension}`;
}
