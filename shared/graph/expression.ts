// The relation expression of the graph node query interface (CONTRACT.md):
//
//   expr   := (arrow body)+          arrow := "->" | "<-"      (whitespace between tokens ignored)
//   body   := "" | "*" | "[" prop ("," prop)* "]" | prop ["+"] [filter]
//   filter := "{" key ":" value ("," key ":" value)* "}"
//
// Whitespace is ignored between tokens, never inside one: `->na me` is an error rather than
// `->name`, so a typo cannot silently query another property. A filter value that holds
// whitespace or punctuation is written in double quotes (`{name:"Email addresses"}`).

export type Direction = 'out' | 'in';

export interface FilterTerm {
  key: string;
  value: string;
}

export type HopBody =
  /** `->` / `<-`: the labels of the arcs, without values. */
  | { kind: 'labels' }
  /** `->*` / `<-*`: every arc with its values. */
  | { kind: 'all' }
  /** `->[a, b]`: several properties. */
  | { kind: 'list'; properties: string[] }
  /** `->a`, `->a+`, `->a+{typeOf:X}`: one property, optionally repeated and filtered. */
  | { kind: 'property'; property: string; repeat: boolean; filter: FilterTerm[] };

export interface Hop {
  direction: Direction;
  body: HopBody;
}

export interface Expression {
  hops: Hop[];
}

export interface ExpressionError {
  message: string;
  /** 0-based offset into the text (UTF-16 code units). */
  index: number;
}

export type ParseResult = { ok: true; ast: Expression } | { ok: false; error: ExpressionError };

export const MAX_EXPRESSION_LENGTH = 2000;

const NAME_CHAR = /[A-Za-z0-9_]/;
/** Characters a filter value may hold without quotes; everything else needs them. */
const VALUE_CHAR = /[^\s,{}[\]:"\\]/;
const BARE_VALUE = /^[^\s,{}[\]:"\\]+$/;

class Failure {
  readonly error: ExpressionError;
  constructor(message: string, index: number) {
    this.error = { message: `${message} at position ${index}`, index };
  }
}

/** Parses a relation expression; the error says what is wrong and at which offset. */
export function parseExpression(text: string): ParseResult {
  try {
    return { ok: true, ast: new Parser(text).expression() };
  } catch (error) {
    if (error instanceof Failure) return { ok: false, error: error.error };
    throw error;
  }
}

class Parser {
  readonly #text: string;
  #at = 0;

  constructor(text: string) {
    this.#text = text;
  }

  expression(): Expression {
    if (this.#text.length > MAX_EXPRESSION_LENGTH) throw new Failure(`expression is longer than ${MAX_EXPRESSION_LENGTH} characters`, MAX_EXPRESSION_LENGTH);
    this.#skipSpace();
    if (this.#atEnd()) throw new Failure('expression is empty; expected "->" or "<-"', this.#at);
    const hops: Hop[] = [];
    while (!this.#atEnd()) {
      hops.push({ direction: this.#arrow(), body: this.#body() });
      this.#skipSpace();
    }
    return { hops };
  }

  #arrow(): Direction {
    const two = this.#text.slice(this.#at, this.#at + 2);
    if (two === '->' || two === '<-') {
      this.#at += 2;
      return two === '->' ? 'out' : 'in';
    }
    const char = this.#peek();
    if (char === '-' || char === '<') throw new Failure('incomplete arrow; expected "->" or "<-"', this.#at);
    if (char === '+') throw new Failure('"+" must follow a single property name', this.#at);
    if (char === '{') throw new Failure('a filter must follow a single property name', this.#at);
    throw new Failure('expected alternating arrows and properties', this.#at);
  }

  #body(): HopBody {
    this.#skipSpace();
    const char = this.#peek();
    if (char === undefined || this.#atArrow()) return { kind: 'labels' };
    if (char === '*') {
      this.#at += 1;
      return { kind: 'all' };
    }
    if (char === '[') return { kind: 'list', properties: this.#list() };
    if (char === '+') throw new Failure('"+" must follow a single property name', this.#at);
    if (char === '{') throw new Failure('a filter must follow a single property name', this.#at);
    if (!NAME_CHAR.test(char)) throw new Failure('expected alternating arrows and properties', this.#at);
    const property = this.#name();
    this.#skipSpace();
    let repeat = false;
    if (this.#peek() === '+') {
      this.#at += 1;
      repeat = true;
      this.#skipSpace();
      if (this.#peek() === '+') throw new Failure('"+" may appear only once after a property', this.#at);
    }
    const filter = this.#peek() === '{' ? this.#filter() : [];
    this.#skipSpace();
    if (this.#peek() === '{') throw new Failure('only one filter may follow a property', this.#at);
    if (this.#peek() === '+') throw new Failure('"+" must come before the filter', this.#at);
    return { kind: 'property', property, repeat, filter };
  }

  #list(): string[] {
    const open = this.#at;
    this.#at += 1;
    const properties: string[] = [];
    for (;;) {
      this.#skipSpace();
      if (this.#atEnd()) throw new Failure('unclosed "["', open);
      if (!NAME_CHAR.test(this.#peek()!)) throw new Failure('expected a property name', this.#at);
      properties.push(this.#name());
      this.#skipSpace();
      const next = this.#peek();
      if (next === undefined) throw new Failure('unclosed "["', open);
      this.#at += 1;
      if (next === ']') return properties;
      if (next !== ',') throw new Failure('expected "," or "]"', this.#at - 1);
    }
  }

  #filter(): FilterTerm[] {
    const open = this.#at;
    this.#at += 1;
    const terms: FilterTerm[] = [];
    for (;;) {
      this.#skipSpace();
      if (this.#atEnd()) throw new Failure('unclosed "{"', open);
      if (!NAME_CHAR.test(this.#peek()!)) throw new Failure('filter needs key:value', this.#at);
      const key = this.#name();
      this.#skipSpace();
      if (this.#atEnd()) throw new Failure('unclosed "{"', open);
      if (this.#peek() !== ':') throw new Failure('filter needs key:value', this.#at);
      this.#at += 1;
      this.#skipSpace();
      if (this.#atEnd()) throw new Failure('unclosed "{"', open);
      terms.push({ key, value: this.#value() });
      this.#skipSpace();
      const next = this.#peek();
      if (next === undefined) throw new Failure('unclosed "{"', open);
      if (next === '}') {
        this.#at += 1;
        return terms;
      }
      if (next !== ',') {
        throw new Failure(NAME_CHAR.test(next) ? 'expected "," or "}" (quote a value that holds spaces)' : 'expected "," or "}"', this.#at);
      }
      this.#at += 1;
    }
  }

  #value(): string {
    if (this.#peek() === '"') return this.#quoted();
    const start = this.#at;
    while (!this.#atEnd() && VALUE_CHAR.test(this.#peek()!)) this.#at += 1;
    if (this.#at === start) throw new Failure('filter needs key:value', this.#at);
    return this.#text.slice(start, this.#at);
  }

  #quoted(): string {
    const open = this.#at;
    this.#at += 1;
    let value = '';
    for (;;) {
      const char = this.#peek();
      if (char === undefined) throw new Failure('unclosed quote', open);
      this.#at += 1;
      if (char === '"') return value;
      if (char === '\\') {
        const escaped = this.#peek();
        if (escaped === undefined) throw new Failure('unclosed quote', open);
        this.#at += 1;
        value += escaped;
      } else {
        value += char;
      }
    }
  }

  #name(): string {
    const start = this.#at;
    while (!this.#atEnd() && NAME_CHAR.test(this.#peek()!)) this.#at += 1;
    return this.#text.slice(start, this.#at);
  }

  #atArrow(): boolean {
    const two = this.#text.slice(this.#at, this.#at + 2);
    return two === '->' || two === '<-';
  }

  #skipSpace(): void {
    while (!this.#atEnd() && /\s/.test(this.#peek()!)) this.#at += 1;
  }

  #peek(): string | undefined {
    return this.#text[this.#at];
  }

  #atEnd(): boolean {
    return this.#at >= this.#text.length;
  }
}

/** The canonical text of an expression; `parseExpression(printExpression(ast))` gives `ast` back. */
export function printExpression(ast: Expression): string {
  return ast.hops.map((hop) => (hop.direction === 'out' ? '->' : '<-') + printBody(hop.body)).join('');
}

function printBody(body: HopBody): string {
  switch (body.kind) {
    case 'labels':
      return '';
    case 'all':
      return '*';
    case 'list':
      return `[${body.properties.join(', ')}]`;
    case 'property': {
      const filter = body.filter.length > 0 ? `{${body.filter.map((t) => `${t.key}:${printValue(t.value)}`).join(', ')}}` : '';
      return body.property + (body.repeat ? '+' : '') + filter;
    }
  }
}

function printValue(value: string): string {
  return BARE_VALUE.test(value) ? value : `"${value.replace(/["\\]/g, (c) => '\\' + c)}"`;
}

/** The key a hop's values come back under in `arcs`: a repeated property keeps its `+`. */
export function arcKey(property: string, repeat: boolean): string {
  return repeat ? `${property}+` : property;
}

/** True for a valid property name (also a valid filter key). */
export function isPropertyName(name: string): boolean {
  return /^[A-Za-z0-9_]+$/.test(name);
}
