// BreachQueries (server/api/breachQueries.ts): the breach list's query parsed once per query
// string. Remembering must give exactly what parsing gives, never keep an error, and never let
// one request's query change another's.
import { describe, expect, it } from 'vitest';
import { parseBreachQuery } from '../../shared/api/index.ts';
import { BreachQueries } from '../../server/api/breachQueries.ts';

const url = (search: string) => new URL('http://service.invalid/api/v1/user/breaches' + search);

describe('BreachQueries', () => {
  it('answers what parseBreachQuery answers, the first time and when remembered', () => {
    const queries = new BreachQueries();
    for (const search of ['', '?includeSensitive=true', '?dataClasses=Passwords&dataClasses=Email%20addresses&domain=adobe.com', '?unknown=1']) {
      const expected = parseBreachQuery(url(search).searchParams);
      for (let round = 0; round < 2; round++) {
        const result = queries.parse(url(search));
        expect(result.ok).toBe(true);
        if (!result.ok || !expected.ok) throw new Error('unreachable');
        expect(result.parsed.query).toEqual(expected.query);
        expect(result.parsed.key).toBe(JSON.stringify(expected.query));
      }
    }
  });

  it('refuses a bad query every time with its errors, and keeps nothing of it', () => {
    const queries = new BreachQueries();
    for (let round = 0; round < 2; round++) {
      const result = queries.parse(url('?includeSensitive=yes&domain=a&domain=b'));
      expect(result).toEqual({
        ok: false,
        errors: [
          { pointer: '/domain', parameter: 'domain', message: 'must be given at most once' },
          { pointer: '/includeSensitive', parameter: 'includeSensitive', message: 'must be "true" or "false"' },
        ],
      });
    }
  });

  it('hands out a frozen query, so no request changes what the next one is answered by', () => {
    const queries = new BreachQueries();
    const first = queries.parse(url('?dataClasses=Passwords'));
    if (!first.ok) throw new Error('the query is valid');
    expect(() => first.parsed.query.dataClasses!.push('Names')).toThrow(TypeError);
    expect(() => ((first.parsed.query as { includeSensitive: boolean }).includeSensitive = true)).toThrow(TypeError);
    const again = queries.parse(url('?dataClasses=Passwords'));
    expect(again.ok && again.parsed.query).toEqual({ dataClasses: ['Passwords'], includeSensitive: false });
  });

  it('stays within its bound, still answering every query right', () => {
    const queries = new BreachQueries(4);
    for (let i = 0; i < 20; i++) {
      const result = queries.parse(url(`?domain=site${i}.example`));
      expect(result.ok && result.parsed.query.domain).toBe(`site${i}.example`);
    }
  });
});
