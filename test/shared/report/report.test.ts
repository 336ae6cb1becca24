import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CSV_COLUMNS,
  CSV_DEMO_COLUMN,
  csvField,
  DEMO_NOTICE,
  exportFileName,
  fixGroupOf,
  fixGroups,
  fixIntents,
  FIX_GROUPS,
  intentSize,
  nextFix,
  reportRows,
  resolvedPerWeek,
  stepsFor,
  toCsv,
  toJsonExport,
  weekStartOf,
  type Report,
} from '../../../shared/report/index.ts';
import { parseCsv } from '../../support/csv.ts';

const breach = (id: string, dataClasses: string[], domain = `${id.toLowerCase()}.example`) => ({
  id,
  domain,
  breachDate: '2020-01-01',
  addedDate: '2020-02-01T10:00:00Z',
  modifiedDate: '2020-02-01T10:00:00Z',
  dataClasses,
  isSensitive: false,
});
const cell = (resolved: boolean, resolvedAt?: string, pending = false) => ({ resolved, pending, ...(resolvedAt ? { resolvedAt } : {}) });

const REPORT: Report = {
  generatedAt: '2026-11-24T09:00:00Z',
  account: 'alice@example.com',
  includesHibp: false,
  breaches: [
    {
      breach: breach('Adobe', ['Email addresses', 'Passwords', 'Password hints']),
      accounts: [
        { email: 'a@x.example', cells: { 'Email addresses': cell(false), Passwords: cell(true, '2026-11-23T08:00:00Z'), 'Password hints': cell(false) } },
        { email: 'b@x.example', cells: { 'Email addresses': cell(true, '2026-11-10T08:00:00Z'), Passwords: cell(false), 'Password hints': cell(false) } },
      ],
    },
    {
      breach: breach('Bank', ['Credit cards', 'Names']),
      accounts: [{ email: 'a@x.example', cells: { 'Credit cards': cell(false), Names: cell(true, undefined, true) } }],
    },
  ],
};

describe('report rows and exports', () => {
  it('one row per breach × email × data class, with resolved state, resolvedAt and pending', () => {
    const rows = reportRows(REPORT);
    expect(rows).toHaveLength(3 * 2 + 2);
    expect(rows[1]).toEqual({
      breach: 'Adobe',
      domain: 'adobe.example',
      breachDate: '2020-01-01',
      sensitive: false,
      email: 'a@x.example',
      dataClass: 'Passwords',
      resolved: true,
      resolvedAt: '2026-11-23T08:00:00Z',
      pending: false,
    });
    expect(rows.at(-1)).toMatchObject({ breach: 'Bank', dataClass: 'Names', resolved: true, resolvedAt: '', pending: true });
  });

  it('CSV: header, CRLF, quoting; reads back to the same rows', () => {
    const csv = toCsv(REPORT);
    const table = parseCsv(csv);
    expect(table[0]).toEqual([...CSV_COLUMNS]);
    expect(table.slice(1)).toEqual(reportRows(REPORT).map((row) => CSV_COLUMNS.map((column) => String(row[column]))));
    expect(csv.endsWith('\r\n')).toBe(true);
  });

  it('CSV of invented data says so inside the file: a first column a spreadsheet shows, on every row', () => {
    const demo = { ...REPORT, demo: true };
    const table = parseCsv(toCsv(demo));
    expect(table[0]).toEqual([CSV_DEMO_COLUMN, ...CSV_COLUMNS]);
    expect(table.length).toBe(reportRows(demo).length + 1);
    for (const line of table.slice(1)) expect(line[0]).toBe(DEMO_NOTICE);
    expect(table.slice(1).map((line) => line.slice(1))).toEqual(reportRows(demo).map((row) => CSV_COLUMNS.map((column) => String(row[column]))));
    expect(DEMO_NOTICE).toMatch(/^Demo data/);
    // Real data keeps its columns.
    expect(parseCsv(toCsv(REPORT))[0]).toEqual([...CSV_COLUMNS]);
  });

  it('CSV fields survive any text, and formulas are defused', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const [[back]] = parseCsv(`${csvField(text)}\r\n`) as [[string]];
        expect(/^[=+\-@\t\r]/.test(text) ? back === `'${text}` : back === text).toBe(true);
      }),
    );
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it('JSON credits Have I Been Pwned only when its data is included', () => {
    const own = JSON.parse(toJsonExport(REPORT));
    expect(own).toMatchObject({ format: 'breach-monitor-report', version: 1, account: 'alice@example.com' });
    expect(own.credit).toBeUndefined();
    expect(own.rows).toEqual(reportRows(REPORT));
    expect(JSON.parse(toJsonExport({ ...REPORT, includesHibp: true })).credit).toMatch(/Have I Been Pwned/);
    expect(exportFileName(REPORT, 'csv')).toBe('breach-monitor-report-2026-11-24.csv');
  });
});

describe('guided fix groups', () => {
  it('puts data classes in the groups people act on, case-insensitively; the rest is "everything else"', () => {
    expect(fixGroupOf('Credit cards')).toBe('high-risk');
    expect(fixGroupOf('government issued IDs')).toBe('high-risk');
    expect(fixGroupOf('Passwords')).toBe('passwords');
    expect(fixGroupOf('Security questions and answers')).toBe('passwords');
    expect(fixGroupOf('Phone numbers')).toBe('contact');
    expect(fixGroupOf('Shoe sizes')).toBe('other');
    // Every class named by a group is named once.
    const named = FIX_GROUPS.flatMap((group) => group.dataClasses);
    expect(new Set(named).size).toBe(named.length);
  });

  it('orders groups by urgency and counts unresolved pairs; "what to do next" is the first group left', () => {
    const groups = fixGroups(REPORT);
    expect(groups.map((group) => [group.id, group.unresolved, group.total])).toEqual([
      ['high-risk', 1, 1],
      ['passwords', 3, 4],
      ['contact', 1, 2],
      ['other', 0, 1],
    ]);
    expect(nextFix(REPORT)?.id).toBe('high-risk');
    expect(fixGroups(REPORT, { breachId: 'Adobe' }).map((group) => group.id)).toEqual(['passwords', 'contact']);
  });

  it('"done" changes only what is unresolved for the chosen emails', () => {
    const passwords = fixGroups(REPORT, { breachId: 'Adobe' }).find((group) => group.id === 'passwords')!;
    const intents = fixIntents(passwords.targets, new Set(['a@x.example', 'b@x.example']));
    expect(intents).toEqual([
      { breachId: 'Adobe', emails: ['a@x.example'], dataClasses: ['Password hints'] },
      { breachId: 'Adobe', emails: ['b@x.example'], dataClasses: ['Passwords', 'Password hints'] },
    ]);
    expect(intentSize(intents)).toBe(3);
    expect(fixIntents(passwords.targets, new Set(['b@x.example']))).toHaveLength(1);
    expect(fixIntents(passwords.targets, new Set())).toEqual([]);
  });

  it('steps name the site, link to it for one breach, and skip advice for data that was not exposed', () => {
    const passwords = fixGroups(REPORT, { breachId: 'Adobe' }).find((group) => group.id === 'passwords')!;
    const steps = stepsFor(passwords.spec, passwords.targets);
    expect(steps[0]).toMatchObject({ id: 'change-password', text: 'Change your password at adobe.example.', site: 'adobe.example' });
    expect(steps.map((step) => step.id)).toContain('security-answers');
    expect(steps.map((step) => step.id)).not.toContain('sessions');
    expect(steps.filter((step) => step.site)).toHaveLength(1);
    const across = fixGroups(REPORT).find((group) => group.id === 'high-risk')!;
    expect(stepsFor(across.spec, [...across.targets, ...across.targets])[0]!.text).toContain('each site below');
  });
});

describe('progress per week', () => {
  it('weeks start on Monday (UTC)', () => {
    expect(new Date(weekStartOf(Date.parse('2026-11-24T09:00:00Z'))).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(weekStartOf(Date.parse('2026-11-23T00:00:00Z'))).toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(new Date(weekStartOf(Date.parse('2026-11-22T23:59:00Z'))).toISOString()).toBe('2026-11-16T00:00:00.000Z');
  });

  it('counts resolutions per week from resolvedAt; undated ones apart', () => {
    const { weeks, before, unknownDate } = resolvedPerWeek(REPORT, { weeks: 3 });
    expect(weeks).toEqual([
      { weekStart: '2026-11-09', count: 1 },
      { weekStart: '2026-11-16', count: 0 },
      { weekStart: '2026-11-23', count: 1 },
    ]);
    expect([before, unknownDate]).toEqual([0, 1]);
    expect(resolvedPerWeek(REPORT, { weeks: 1 }).before).toBe(1);
  });
});
