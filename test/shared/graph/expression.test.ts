import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_EXPRESSION_LENGTH, parseExpression, printExpression, type Expression, type HopBody } from '../../../shared/graph/index.ts';

const name = fc.stringMatching(/^[A-Za-z0-9_]{1,10}$/);
const body: fc.Arbitrary<HopBody> = fc.oneof(
  fc.constant({ kind: 'labels' as const }),
  fc.constant({ kind: 'all' as const }),
  fc.record({ kind: fc.constant('list' as const), properties: fc.array(name, { minLength: 1, maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('property' as const),
    property: name,
    repeat: fc.boolean(),
    // Any text as a value: spaces, quotes, backslashes, braces and non-ASCII must survive printing.
    filter: fc.array(fc.record({ key: name, value: fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9/._-]{1,8}$/), fc.string({ unit: 'grapheme' })) }), { maxLength: 3 }),
  }),
);
const expression: fc.Arbitrary<Expression> = fc.record({
  hops: fc.array(fc.record({ direction: fc.constantFrom('out' as const, 'in' as const), body }), { minLength: 1, maxLength: 4 }),
});
const space = fc.stringMatching(/^[ \t\n]{0,3}$/);

/** The expression's tokens with `gap()` between every two (never inside a name, value or arrow). */
function spaced(ast: Expression, gap: () => string): string {
  const quote = (value: string) => printExpression({ hops: [{ direction: 'out', body: { kind: 'property', property: 'k', repeat: false, filter: [{ key: 'k', value }] } }] }).slice(6, -1);
  return (
    gap() +
    ast.hops
      .map((hop) => {
        const arrow = hop.direction === 'out' ? '->' : '<-';
        const b = hop.body;
        switch (b.kind) {
          case 'labels':
            return arrow + gap();
          case 'all':
            return arrow + gap() + '*' + gap();
          case 'list':
            return arrow + gap() + '[' + gap() + b.properties.join(gap() + ',' + gap()) + gap() + ']' + gap();
          case 'property': {
            const filter = b.filter.length ? '{' + gap() + b.filter.map((t) => t.key + gap() + ':' + gap() + quote(t.value) + gap()).join(',' + gap()) + '}' + gap() : '';
            return arrow + gap() + b.property + gap() + (b.repeat ? '+' + gap() : '') + filter;
          }
        }
      })
      .join('')
  );
}

describe('parseExpression / printExpression', () => {
  it('parses every shape of the interface', () => {
    const parse = (text: string) => {
      const result = parseExpression(text);
      if (!result.ok) throw new Error(result.error.message);
      return result.ast.hops;
    };
    expect(parse('->name')).toEqual([{ direction: 'out', body: { kind: 'property', property: 'name', repeat: false, filter: [] } }]);
    expect(parse('<-')).toEqual([{ direction: 'in', body: { kind: 'labels' } }]);
    expect(parse('->')).toEqual([{ direction: 'out', body: { kind: 'labels' } }]);
    expect(parse('<-*')).toEqual([{ direction: 'in', body: { kind: 'all' } }]);
    expect(parse('->[name, administrativeCapital, containedInPlace]')).toEqual([{ direction: 'out', body: { kind: 'list', properties: ['name', 'administrativeCapital', 'containedInPlace'] } }]);
    expect(parse('<-containedInPlace+{typeOf:County}')).toEqual([
      { direction: 'in', body: { kind: 'property', property: 'containedInPlace', repeat: true, filter: [{ key: 'typeOf', value: 'County' }] } },
    ]);
    expect(parse(' -> specializationOf + { typeOf : StatVarGroup } ')).toEqual(parse('->specializationOf+{typeOf:StatVarGroup}'));
    expect(parse('->dataClass{name:"Email addresses", domain:domain/adobe.com}')[0]!.body).toEqual({
      kind: 'property',
      property: 'dataClass',
      repeat: false,
      filter: [
        { key: 'name', value: 'Email addresses' },
        { key: 'domain', value: 'domain/adobe.com' },
      ],
    });
    expect(parse('<-dataClass->name')).toHaveLength(2);
    expect(parse('->->')).toEqual([
      { direction: 'out', body: { kind: 'labels' } },
      { direction: 'out', body: { kind: 'labels' } },
    ]);
  });

  it('prints the canonical text', () => {
    for (const text of ['->name', '<-', '->', '<-*', '->[a, b, c]', '<-containedInPlace+{typeOf:County}', '->a{k:"two words", q:"say \\"hi\\""}', '->a{k:""}', '<-dataClass->name']) {
      const result = parseExpression(text);
      expect(result.ok && printExpression(result.ast)).toBe(text);
    }
  });

  it('round-trips any expression: parse(print(ast)) is ast', () => {
    fc.assert(
      fc.property(expression, (ast) => {
        const printed = printExpression(ast);
        const parsed = parseExpression(printed);
        expect(parsed).toEqual({ ok: true, ast });
        expect(printExpression((parsed as { ast: Expression }).ast)).toBe(printed);
      }),
      { numRuns: 500 },
    );
  });

  it('ignores whitespace between tokens: print(parse(x)) is the canonical text', () => {
    fc.assert(
      fc.property(expression, fc.infiniteStream(space), (ast, gaps) => {
        const text = spaced(ast, () => gaps.next().value as string);
        const parsed = parseExpression(text);
        expect(parsed).toEqual({ ok: true, ast });
        if (parsed.ok) expect(printExpression(parsed.ast)).toBe(printExpression(ast));
      }),
      { numRuns: 300 },
    );
  });

  it('answers any text with an expression or a positioned error, never a throw', () => {
    const alphabet = fc.constantFrom('-', '>', '<', '*', '[', ']', ',', '{', '}', ':', '+', '"', '\\', ' ', 'a', 'b', '/');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(alphabet, { maxLength: 24 }).map((chars) => chars.join('')),
        ),
        (text) => {
          const result = parseExpression(text);
          if (result.ok) {
            expect(parseExpression(printExpression(result.ast))).toEqual(result);
          } else {
            expect(result.error.index).toBeGreaterThanOrEqual(0);
            expect(result.error.index).toBeLessThanOrEqual(text.length);
            expect(result.error.message).toMatch(new RegExp(` at position ${result.error.index}$`));
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['', 'expression is empty; expected "->" or "<-" at position 0', 0],
    ['   ', 'expression is empty; expected "->" or "<-" at position 3', 3],
    ['name', 'expected alternating arrows and properties at position 0', 0],
    ['->na me', 'expected alternating arrows and properties at position 5', 5],
    ['->*x', 'expected alternating arrows and properties at position 3', 3],
    ['->a:b', 'expected alternating arrows and properties at position 3', 3],
    ['-name', 'incomplete arrow; expected "->" or "<-" at position 0', 0],
    ['->a<b', 'incomplete arrow; expected "->" or "<-" at position 3', 3],
    ['->+', '"+" must follow a single property name at position 2', 2],
    ['->*+', '"+" must follow a single property name at position 3', 3],
    ['->[a]+', '"+" must follow a single property name at position 5', 5],
    ['->a++', '"+" may appear only once after a property at position 4', 4],
    ['->a{k:v}+', '"+" must come before the filter at position 8', 8],
    ['->{typeOf:X}', 'a filter must follow a single property name at position 2', 2],
    ['->*{a:b}', 'a filter must follow a single property name at position 3', 3],
    ['->a{k:v}{l:w}', 'only one filter may follow a property at position 8', 8],
    ['->[', 'unclosed "[" at position 2', 2],
    ['->[a, b', 'unclosed "[" at position 2', 2],
    ['->x->[a,', 'unclosed "[" at position 5', 5],
    ['->[]', 'expected a property name at position 3', 3],
    ['->[a,]', 'expected a property name at position 5', 5],
    ['->[a b]', 'expected "," or "]" at position 5', 5],
    ['->[a;b]', 'expected "," or "]" at position 4', 4],
    ['->a{', 'unclosed "{" at position 3', 3],
    ['->a+{typeOf:County', 'unclosed "{" at position 4', 4],
    ['->a+{typeOf', 'unclosed "{" at position 4', 4],
    ['->a+{typeOf:', 'unclosed "{" at position 4', 4],
    ['->a{}', 'filter needs key:value at position 4', 4],
    ['->a+{typeOf}', 'filter needs key:value at position 11', 11],
    ['->a{:X}', 'filter needs key:value at position 4', 4],
    ['->a{k:}', 'filter needs key:value at position 6', 6],
    ['->a{k:v,}', 'filter needs key:value at position 8', 8],
    ['->a{k:v w:x}', 'expected "," or "}" (quote a value that holds spaces) at position 8', 8],
    ['->a{k:v]', 'expected "," or "}" at position 7', 7],
    ['->a{k:"v', 'unclosed quote at position 6', 6],
    ['->a{k:"v\\', 'unclosed quote at position 6', 6],
    ['x'.repeat(MAX_EXPRESSION_LENGTH + 1), `expression is longer than ${MAX_EXPRESSION_LENGTH} characters at position ${MAX_EXPRESSION_LENGTH}`, MAX_EXPRESSION_LENGTH],
  ])('refuses %j: %s', (text, message, index) => {
    expect(parseExpression(text)).toEqual({ ok: false, error: { message, index } });
  });
});
