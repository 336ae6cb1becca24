import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBreachQuery, toBreachSearchParams, type BreachQuery } from '../../shared/api/index.ts';

const name = fc.string({ minLength: 1, maxLength: 20 });
const query: fc.Arbitrary<BreachQuery> = fc.record(
  {
    domain: name,
    dataClasses: fc.array(name, { maxLength: 5 }),
    unresolvedDataClasses: fc.array(name, { maxLength: 5 }),
    includeSensitive: fc.boolean(),
  },
  { requiredKeys: ['includeSensitive'] },
);

describe('parseBreachQuery', () => {
  it('round-trips every query through the query string', () => {
    fc.assert(
      fc.property(query, (original) => {
        const text = toBreachSearchParams(original).toString();
        const parsed = parseBreachQuery(new URLSearchParams(text));
        expect(parsed.ok).toBe(true);
        if (!parsed.ok) return;
        const normalize = (q: BreachQuery) => ({
          ...q,
          dataClasses: q.dataClasses?.length ? q.dataClasses : undefined,
          unresolvedDataClasses: q.unresolvedDataClasses?.length ? q.unresolvedDataClasses : undefined,
        });
        expect(normalize(parsed.query)).toEqual(normalize(original));
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('never throws on arbitrary query strings', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = parseBreachQuery(new URLSearchParams(text));
        if (!result.ok) for (const error of result.errors) expect(error.message.length).toBeGreaterThan(0);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('defaults includeSensitive to false and reads repeated array parameters', () => {
    const parsed = parseBreachQuery(new URLSearchParams('dataClasses=Passwords&dataClasses=Email%20addresses'));
    expect(parsed).toEqual({ ok: true, query: { includeSensitive: false, dataClasses: ['Passwords', 'Email addresses'] } });
  });

  it.each([
    ['includeSensitive=yes', '/includeSensitive', 'must be "true" or "false"'],
    ['domain=', '/domain', 'must not be empty'],
    ['domain=a.com&domain=b.com', '/domain', 'must be given at most once'],
    ['dataClasses=', '/dataClasses', 'must not be empty'],
  ])('rejects %s with a located message', (text, pointer, message) => {
    const parsed = parseBreachQuery(new URLSearchParams(text));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.errors[0]).toMatchObject({ pointer, message });
  });

  it('ignores unknown parameters', () => {
    expect(parseBreachQuery(new URLSearchParams('utm_source=x'))).toEqual({ ok: true, query: { includeSensitive: false } });
  });
});
