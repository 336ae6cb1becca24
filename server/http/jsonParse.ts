/**
 * A JSON parser for request bodies that cannot stall the service: it gives the event loop back
 * every few milliseconds, and stops at the first value past its limits (nesting, number of
 * values, key and string size) instead of building a huge or deep tree first and checking it
 * after. What it returns is what `JSON.parse` returns for the same text (the same values, key
 * order, duplicate keys, `__proto__` as an own property), except that every object has no
 * prototype: a name every object inherits (`constructor`, `valueOf`, …) is found on a parsed
 * object only when the sender wrote it. What it refuses, `JSON.parse` refuses too, or it is past
 * a limit.
 */

export interface JsonLimits {
  /** Objects and arrays nested inside one another (a scalar at the top is depth 0). */
  maxDepth: number;
  /** Values of any kind: objects, arrays, strings, numbers, booleans and nulls. */
  maxValues: number;
  /** Bytes (UTF-8) of one object key. */
  maxKeyBytes?: number;
  /** Bytes (UTF-8) of one string value. */
  maxStringBytes?: number;
  /** Why an object key is refused (the format's own rules), or undefined. */
  keyProblem?: (key: string) => string | undefined;
}

/** Past one of the {@link JsonLimits}; `pointer` (RFC 6901) says where. */
export class JsonLimitError extends Error {
  override readonly name = 'JsonLimitError';
  readonly limit: 'depth' | 'values' | 'key' | 'string';
  readonly pointer: string;
  constructor(limit: JsonLimitError['limit'], message: string, pointer: string) {
    super(message);
    this.limit = limit;
    this.pointer = pointer;
  }
}

export class JsonSyntaxError extends Error {
  override readonly name = 'JsonSyntaxError';
}

/** Work between turns given back to the event loop. */
const SLICE_MS = 4;
/** Values parsed between looks at the clock. */
const CHECK_EVERY = 1024;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// Characters a JSON string may not hold unescaped (RFC 8259 §7).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f]/;

interface Frame {
  container: unknown[] | Record<string, unknown>;
  /** The key the next value goes under (objects only). */
  key: string;
  /** Pointer segments, built only when an error needs them. */
  index: number;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Parses `text` within `limits`, yielding to the event loop every few milliseconds. */
export async function parseJsonYielding(text: string, limits: JsonLimits): Promise<unknown> {
  const length = text.length;
  const stack: Frame[] = [];
  let at = 0;
  let values = 0;
  let sliceStart = performance.now();
  let nextBackslash = text.indexOf('\\');

  const pointer = () =>
    stack
      .map((frame) => (Array.isArray(frame.container) ? String(frame.index) : frame.key.replace(/~/g, '~0').replace(/\//g, '~1')))
      .map((segment) => '/' + segment)
      .join('');
  const unexpected = (): never => {
    if (at >= length) throw new JsonSyntaxError(`Unexpected end of JSON input`);
    throw new JsonSyntaxError(`Unexpected ${JSON.stringify(text[at])} at position ${at}`);
  };
  const skipSpace = () => {
    let code = text.charCodeAt(at);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = text.charCodeAt(++at);
  };
  const readString = (): string => {
    // at is on the opening quote.
    const start = at + 1;
    const close = text.indexOf('"', start);
    if (close < 0) throw new JsonSyntaxError('Unterminated string in JSON');
    if (nextBackslash !== -1 && nextBackslash < start) nextBackslash = text.indexOf('\\', start);
    if (nextBackslash === -1 || nextBackslash > close) {
      const raw = text.slice(start, close);
      if (CONTROL.test(raw)) throw new JsonSyntaxError(`Bad control character in string literal near position ${start}`);
      at = close + 1;
      return raw;
    }
    // Escapes: find the real end, then let JSON.parse decode exactly this literal.
    let end = start;
    for (;;) {
      const code = text.charCodeAt(end);
      if (Number.isNaN(code)) throw new JsonSyntaxError('Unterminated string in JSON');
      if (code === 0x5c) end += 2;
      else if (code === 0x22) break;
      else end++;
    }
    let decoded: string;
    try {
      decoded = JSON.parse(text.slice(at, end + 1)) as string;
    } catch (error) {
      throw new JsonSyntaxError(`${(error as Error).message.replace(/ in JSON at position \d+.*$/s, '')} in the string at position ${at}`);
    }
    at = end + 1;
    return decoded;
  };
  const checkString = (value: string, isKey: boolean) => {
    const max = isKey ? limits.maxKeyBytes : limits.maxStringBytes;
    // UTF-8 takes at most 3 bytes per UTF-16 unit: only long strings need counting.
    if (max !== undefined && value.length * 3 > max && Buffer.byteLength(value) > max) {
      throw new JsonLimitError(isKey ? 'key' : 'string', isKey ? `key "${value.slice(0, 40)}…" is longer than ${max} bytes` : `a string is longer than ${max} bytes`, isKey ? pointer() : pointer());
    }
  };
  const readKey = (frame: Frame) => {
    skipSpace();
    if (text.charCodeAt(at) !== 0x22) unexpected();
    const key = readString();
    frame.key = key;
    checkString(key, true);
    const problem = limits.keyProblem?.(key);
    if (problem) throw new JsonLimitError('key', problem, pointer());
    skipSpace();
    if (text.charCodeAt(at) !== 0x3a) unexpected();
    at++;
  };
  const count = () => {
    if (++values > limits.maxValues) throw new JsonLimitError('values', `more than ${limits.maxValues} values`, pointer());
  };

  skipSpace();
  for (;;) {
    // A value starts at `at`.
    if (values % CHECK_EVERY === 0 && performance.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    skipSpace();
    count();
    let value: unknown;
    const code = text.charCodeAt(at);
    if (code === 0x7b || code === 0x5b) {
      if (stack.length >= limits.maxDepth) throw new JsonLimitError('depth', `nested more than ${limits.maxDepth} levels deep`, pointer());
      at++;
      skipSpace();
      const isObject = code === 0x7b;
      const frame: Frame = { container: isObject ? (Object.create(null) as Record<string, unknown>) : [], key: '', index: 0 };
      if (text.charCodeAt(at) !== (isObject ? 0x7d : 0x5d)) {
        stack.push(frame);
        if (isObject) readKey(frame);
        continue;
      }
      at++;
      value = frame.container;
    } else if (code === 0x22) {
      value = readString();
      checkString(value as string, false);
    } else if (code === 0x74 && text.startsWith('true', at)) {
      value = true;
      at += 4;
    } else if (code === 0x66 && text.startsWith('false', at)) {
      value = false;
      at += 5;
    } else if (code === 0x6e && text.startsWith('null', at)) {
      value = null;
      at += 4;
    } else {
      NUMBER.lastIndex = at;
      const match = NUMBER.exec(text);
      if (!match) unexpected();
      value = Number(match![0]);
      at = NUMBER.lastIndex;
    }

    // Place the value in its container; close the containers that end here.
    let expectingValue = false;
    while (!expectingValue) {
      const frame = stack.at(-1);
      skipSpace();
      if (!frame) {
        if (at < length) unexpected();
        return value;
      }
      if (Array.isArray(frame.container)) {
        frame.container.push(value);
        frame.index++;
      } else {
        // Without a prototype there is no `__proto__` setter: every key, that one too, becomes an own property.
        frame.container[frame.key] = value;
      }
      const next = text.charCodeAt(at);
      if (next === 0x2c) {
        at++;
        if (!Array.isArray(frame.container)) readKey(frame);
        expectingValue = true;
      } else if (next === (Array.isArray(frame.container) ? 0x5d : 0x7d)) {
        at++;
        stack.pop();
        value = frame.container;
      } else {
        unexpected();
      }
    }
  }
}

/**
 * Watches a JSON body's bytes as they arrive and throws {@link JsonLimitError} as soon as they
 * must hold more than the limits allow, so a body far past them is refused before it is all
 * read, let alone parsed. Outside strings, every value but the first follows its own `:` (in
 * an object) or `,` (an array's or object's next member), so one more than the larger of
 * those counts is a lower bound on the values; nesting is counted exactly. Bytes of UTF-8
 * sequences are all 0x80 or above and never look like JSON's punctuation.
 */
export class JsonShapeScan {
  readonly #limits: JsonLimits;
  #inString = false;
  #escaped = false;
  #depth = 0;
  #colons = 0;
  #commas = 0;

  constructor(limits: JsonLimits) {
    this.#limits = limits;
  }

  push(chunk: Uint8Array): void {
    const { maxDepth } = this.#limits;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let depth = this.#depth;
    let colons = this.#colons;
    let commas = this.#commas;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
        continue;
      }
      if (byte === 0x22) inString = true;
      else if (byte === 0x3a) colons++;
      else if (byte === 0x2c) commas++;
      else if (byte === 0x5b || byte === 0x7b) {
        if (++depth > maxDepth) throw new JsonLimitError('depth', `nested more than ${maxDepth} levels deep`, '');
      } else if (byte === 0x5d || byte === 0x7d) depth--;
    }
    this.#inString = inString;
    this.#escaped = escaped;
    this.#depth = depth;
    this.#colons = colons;
    this.#commas = commas;
    if (1 + Math.max(colons, commas) > this.#limits.maxValues) throw new JsonLimitError('values', `more than ${this.#limits.maxValues} values`, '');
  }
}
