import { describe, expect, it } from 'vitest';
import { understandQuery } from '../../shared/search/understandQuery.ts';
import { compileFilters, NO_CHIPS, type SearchChips } from '../../renderer/features/search/compileFilters.ts';
import { takeOver, withQuestion } from '../../renderer/features/search/questionChips.ts';

const NOW = Date.parse('2026-11-26T08:00:00Z');
const parts = (question: string) => understandQuery(question, { now: NOW }).parts;
const base: SearchChips = { ...NO_CHIPS, sensitive: 'any' };

describe('the question with the chips set by hand', () => {
  it('adds data classes and domains to those set by hand, once each, any of them', () => {
    const chips = withQuestion({ ...base, dataClasses: ['passwords', 'Usernames'] }, parts('passwords and emails of adobe.com or linkedin.com'));
    expect(chips.dataClasses).toEqual(['passwords', 'Usernames', 'Email addresses']);
    expect(chips.domains).toEqual(['adobe.com', 'linkedin.com']);
    expect(compileFilters(chips)).toEqual({ dataClasses: { $in: ['passwords', 'Usernames', 'Email addresses'] }, domain: { $in: ['adobe.com', 'linkedin.com'] } });
  });

  it('applies every date bound: the latest start, the earliest end', () => {
    const chips = withQuestion({ ...base, breachedFrom: '2018-06-01' }, parts('since 2017 before 2021 in 2019 and 2020'));
    expect([chips.breachedFrom, chips.breachedUntil]).toEqual(['2019-01-01', '2020-12-31']);
    expect(compileFilters(chips)).toEqual({ breachDate: { $gte: Date.parse('2019-01-01T00:00:00Z') / 1000, $lt: Date.parse('2021-01-01T00:00:00Z') / 1000 } });
  });

  it('lets the question say sensitive and verified over the controls, until a control takes over', () => {
    const question = parts('verified sensitive passwords');
    expect(withQuestion({ ...base, sensitive: 'exclude' }, question)).toMatchObject({ sensitive: 'only', verified: 'only' });
    const taken = takeOver({ ...base, sensitive: 'exclude' }, question, 'sensitive');
    expect(taken).toEqual({ chips: { ...base, sensitive: 'only' }, dismissed: ['sensitive:only'] });
  });

  it('keeps what a taken-over date phrase gave, and names the phrases it removes', () => {
    expect(takeOver(base, parts('passwords in 2019 after march 2019'), 'dates')).toEqual({
      chips: { ...base, breachedFrom: '2019-04-01', breachedUntil: '2019-12-31' },
      dismissed: ['dates:in 2019', 'dates:after march 2019'],
    });
    expect(takeOver(base, parts('passwords'), 'dates')).toEqual({ chips: base, dismissed: [] });
  });
});
