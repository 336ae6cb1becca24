// The pure parts of issue 25's finding 7: counts that leave out the breaches a person hid, and
// the graph's words (relations, column names, "other" breaches without the start).
import { describe, expect, test } from 'vitest';
import { countsText, withoutHidden } from '../../renderer/features/breaches/counts.ts';
import { columnLabel, expansionTitle, relationWords, withoutNodes } from '../../renderer/features/graph/model.ts';
import { EMPTY_FILTERS } from '../../renderer/lib/urlState.ts';
import type { BreachList } from '../../shared/ipc/views.ts';

type Row = BreachList['rows'][number];

function row(id: string, unresolved: number, classes: Record<string, [resolved: number, total: number]>): Row {
  return {
    breach: {
      id,
      domain: `${id.toLowerCase()}.example`,
      breachDate: '2020-01-01',
      addedDate: '2020-01-02T00:00:00Z',
      modifiedDate: '2020-01-02T00:00:00Z',
      dataClasses: Object.keys(classes),
      isSensitive: false,
    },
    emails: ['alice@example.com'],
    dataClasses: Object.entries(classes).map(([name, [resolved, total]]) => ({ name, resolved, total })),
    unresolved,
    pending: 0,
    failed: 0,
    isNew: false,
  } as Row;
}

describe('counts without the breaches a person hid', () => {
  const list: BreachList = {
    rows: [row('Adobe', 2, { Passwords: [0, 1], 'Email addresses': [0, 1] }), row('Canva', 0, { Passwords: [1, 1] }), row('LinkedIn', 1, { Passwords: [0, 1] })],
    total: 3,
    unresolvedByDataClass: { Passwords: 2, 'Email addresses': 1 },
    hiddenSensitive: 1,
    includesHibp: false,
  };

  test('the total, the rows and the per-class counts leave them out, and say how many', () => {
    const { list: shown, hiddenByYou } = withoutHidden(list, new Set(['Adobe']));
    expect(hiddenByYou).toBe(1);
    expect(shown.rows.map((r) => r.breach.id)).toEqual(['Canva', 'LinkedIn']);
    expect(shown.total).toBe(2);
    expect(shown.unresolvedByDataClass).toEqual({ Passwords: 1, 'Email addresses': 0 });
    expect(countsText(shown, EMPTY_FILTERS, hiddenByYou)).toBe('2 breaches · 1 with something to fix · 1 hidden by you · 1 sensitive breach hidden');
    expect(countsText(shown, { ...EMPTY_FILTERS, unresolvedDataClasses: ['passwords'] }, hiddenByYou)).toBe('2 breaches · 1 with unresolved Passwords · 1 hidden by you · 1 sensitive breach hidden');
  });

  test('a resolved class of a hidden breach is not taken off its count; nothing hidden changes nothing', () => {
    expect(withoutHidden(list, new Set(['Canva'])).list.unresolvedByDataClass).toEqual({ Passwords: 2, 'Email addresses': 1 });
    const same = withoutHidden(list, new Set(['Elsewhere']));
    expect(same).toEqual({ list, hiddenByYou: 0 });
    expect(countsText(same.list, EMPTY_FILTERS, same.hiddenByYou)).toBe('3 breaches · 2 with something to fix · 1 sensitive breach hidden');
  });
});

describe('the graph in words', () => {
  test('relations read as words in the direction followed; unknown arcs stay as they are', () => {
    expect(relationWords('dataClass', 'out')).toBe('exposed');
    expect(relationWords('dataClass', 'in')).toBe('exposed by');
    expect(relationWords('breachDate', 'out')).toBe('breached on');
    expect(relationWords('containedInPlace+', 'out')).toBe('containedInPlace+');
  });

  test('columns are named by what they hold', () => {
    expect(columnLabel(['other', 'Breach'], 'From')).toBe('Breach');
    expect(columnLabel(['DataClass', 'DataClass'], 'Linked to')).toBe('Data class');
    expect(columnLabel(['DataClass', 'Domain'], 'Linked to')).toBe('Linked to');
    expect(columnLabel(['literal'], 'Linked to')).toBe('Value');
  });

  test('expansions are titled as questions; "other" ones when a preset started from a breach', () => {
    expect(expansionTitle('dataClass/passwords', 'DataClass', '<-dataClass', 'Passwords', true)).toBe('Other breaches that exposed Passwords');
    expect(expansionTitle('dataClass/passwords', 'DataClass', '<-dataClass', 'Passwords', false)).toBe('Breaches that exposed Passwords');
    expect(expansionTitle('domain/adobe.com', 'Domain', '<-domain', 'adobe.com', true)).toBe('Other breaches of adobe.com');
    expect(expansionTitle('Breach', 'Class', '<-typeOf', 'Breach', false)).toBe('Every breach');
    expect(expansionTitle('LinkedIn', 'Breach', '->*', 'LinkedIn', false)).toBe('Everything about LinkedIn');
    expect(expansionTitle('LinkedIn', 'Breach', '->name', 'LinkedIn', false)).toBeUndefined();
  });

  test('withoutNodes drops the start nodes from every arc and keeps the page token', () => {
    const response = {
      data: {
        'dataClass/passwords': { arcs: { dataClass: { nodes: [{ dcid: 'Adobe' }, { dcid: 'Canva' }, { value: 'Adobe' }] } } },
        'dataClass/usernames': { properties: ['dataClass'] },
      },
      nextToken: 'next',
    };
    expect(withoutNodes(response, new Set(['Adobe']))).toEqual({
      data: { 'dataClass/passwords': { arcs: { dataClass: { nodes: [{ dcid: 'Canva' }, { value: 'Adobe' }] } } }, 'dataClass/usernames': { properties: ['dataClass'] } },
      nextToken: 'next',
    });
  });
});
