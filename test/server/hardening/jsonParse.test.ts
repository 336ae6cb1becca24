// The bounded JSON parser of request bodies: the same answer as JSON.parse for any text (valid or
// not), refusal at the first value past a limit, and turns given back to the event loop while a
// large body is parsed (a timer set before parsing 15 MB fires long before the parse ends).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonLimitError, JsonShapeScan, JsonSyntaxError, parseJsonYielding } from '../../../server/http/jsonParse.ts';

const UNLIMITED = { maxDepth: 10_000, maxValues: Number.MAX_SAFE_INTEGER };

async function outcome(parse: () => unknown): Promise<{ ok: true; value: unknown } | { ok: false }> {
  try {
    return { ok: true, value: tree(await parse()) };
  } catch {
    return { ok: false };
  }
}

/**
 * `value` as plain data that says everything about it: each object's own keys in order and
 * whether it has a prototype (toStrictEqual alone would read an own key named `constructor` as
 * the object's type).
 */
function tree(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return { array: value.map(tree) };
  return { prototype: Object.getPrototypeOf(value) === null ? null : 'Object.prototype', entries: Object.keys(value).map((key) => [key, tree((value as Record<string, unknown>)[key])]) };
}

/** What the parser must return: JSON.parse's values and key order, every object without a prototype. */
function withoutPrototype(text: string): unknown {
  return tree(
    JSON.parse(text, (_key, value: unknown) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      const object = Object.create(null) as Record<string, unknown>;
      for (const key of Object.keys(value)) object[key] = (value as Record<string, unknown>)[key];
      return object;
    }),
  );
}

/** JSON text whose objects' keys are the names every object inherits, and a few others. */
const INHERITED = Object.getOwnPropertyNames(Object.prototype);
const inheritedNamesJson: fc.Arbitrary<string> = fc
  .letrec<{ node: unknown; object: unknown }>((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean(), fc.constant(null)), tie('object'), fc.array(tie('node'), { maxLength: 3 })),
    object: fc.array(fc.tuple(fc.constantFrom(...INHERITED, 'prototype', 'a', '0'), tie('node')), { maxLength: 4 }).map((entries) => ({ entries })),
  }))
  .node.map(function render(node: unknown): string {
    if (Array.isArray(node)) return `[${node.map(render).join(',')}]`;
    if (node !== null && typeof node === 'object') return `{${(node as { entries: [string, unknown][] }).entries.map(([key, child]) => `${JSON.stringify(key)}:${render(child)}`).join(',')}}`;
    return JSON.stringify(node);
  });

describe('parseJsonYielding', () => {
  it('returns what JSON.parse returns for any JSON text, with any spacing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json(), fc.constantFrom(undefined, 1, '\t'), async (text, indent) => {
        const spaced = indent === undefined ? text : JSON.stringify(JSON.parse(text), null, indent);
        expect(tree(await parseJsonYielding(spaced, UNLIMITED))).toStrictEqual(withoutPrototype(spaced));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and refuses exactly what JSON.parse does for broken texts', async () => {
    const broken = fc.tuple(fc.json(), fc.nat(), fc.constantFrom('', '"', '\\', ',', ']', '}', '{', '[', ':', '0', '-', '.', 'e', 'tru', 'n', '\u0001', ' ')).map(([text, at, insert]) => {
      const position = at % (text.length + 1);
      return text.slice(0, position) + insert + text.slice(position + (at % 2));
    });
    await fc.assert(
      fc.asyncProperty(broken, async (text) => {
        const mine = await outcome(() => parseJsonYielding(text, UNLIMITED));
        const native = await outcome(() => JSON.parse(text) as unknown).then((result) => (result.ok ? { ok: true, value: withoutPrototype(text) } : result));
        expect(mine).toStrictEqual(native);
      }),
      { numRuns: 2000 },
    );
  });

  it('builds every object without a prototype: names every object inherits are own keys or nothing at all', async () => {
    await fc.assert(
      fc.asyncProperty(inheritedNamesJson, async (text) => {
        const value = await parseJsonYielding(text, UNLIMITED);
        expect(tree(value)).toStrictEqual(withoutPrototype(text));
        const objects: object[] = [];
        const visit = (node: unknown): void => {
          if (node === null || typeof node !== 'object') return;
          if (!Array.isArray(node)) objects.push(node);
          for (const child of Object.values(node)) visit(child);
        };
        visit(value);
        for (const object of objects) {
          expect(Object.getPrototypeOf(object)).toBeNull();
          // What a handler reading `body.constructor` or `body.valueOf` meets: the sender's own value, or undefined.
          for (const name of INHERITED) expect((object as Record<string, unknown>)[name]).toBe(Object.hasOwn(object, name) ? (object as Record<string, unknown>)[name] : undefined);
          for (const name of INHERITED) if (!Object.hasOwn(object, name)) expect(name in object, name).toBe(false);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual([...INHERITED].sort());
      }),
      { numRuns: 500 },
    );
  });

  it('keeps __proto__ as an own property and never sets a prototype', async () => {
    const value = (await parseJsonYielding('{"__proto__": {"polluted": 1}, "a": {"__proto__": []}}', UNLIMITED)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses at the first value past the depth, count, key and string limits, saying where', async () => {
    const error = async (text: string, limits: Parameters<typeof parseJsonYielding>[1]) => {
      try {
        await parseJsonYielding(text, limits);
      } catch (caught) {
        return caught;
      }
      throw new Error('accepted');
    };
    expect(await error('{"a": [[[1]]]}', { maxDepth: 3, maxValues: 100 })).toMatchObject({ limit: 'depth', pointer: '/a/0/0' });
    expect(await error('[1, 2, 3, 4]', { maxDepth: 3, maxValues: 4 })).toMatchObject({ limit: 'values', pointer: '/3' });
    expect(await error(`{"${'k'.repeat(800)}": 1}`, { maxDepth: 3, maxValues: 9, maxKeyBytes: 768 })).toMatchObject({ limit: 'key' });
    expect(await error(`{"a": "${'é'.repeat(6)}"}`, { maxDepth: 3, maxValues: 9, maxStringBytes: 10 })).toMatchObject({ limit: 'string', pointer: '/a' });
    expect(await error('{"a/b": {"x.y": 1}}', { maxDepth: 3, maxValues: 9, keyProblem: (key) => (key.includes('.') ? `bad key ${key}` : undefined) })).toMatchObject({
      limit: 'key',
      message: 'bad key x.y',
      pointer: '/a~1b/x.y',
    });
    expect(await error('[' + '['.repeat(100_000), { maxDepth: 32, maxValues: 1e9 })).toBeInstanceOf(JsonLimitError);
    expect(await error('{"a": tru}', UNLIMITED)).toBeInstanceOf(JsonSyntaxError);
  });

  it('stops at the value limit without reading the rest of a 15 MB body', async () => {
    const text = '{' + Array.from({ length: 900_000 }, (_, i) => `"k${i}":${i}`).join(',') + '}';
    // The object and k0…k9998 are 10,000 values: k9999 is where it stops.
    await expect(parseJsonYielding(text, { maxDepth: 32, maxValues: 10_000 })).rejects.toMatchObject({ limit: 'values', pointer: '/k9999' });
  });

  it('gives the event loop turns while it parses a large body', async () => {
    const text = JSON.stringify(Array.from({ length: 400_000 }, (_, i) => ({ id: i, name: `n${i}` })));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    const value = (await parseJsonYielding(text, UNLIMITED)) as unknown[];
    clearInterval(timer);
    expect(value).toHaveLength(400_000);
    expect(ticks).toBeGreaterThan(1);
  });
});

describe('JsonShapeScan', () => {
  it('never refuses a text the parser takes within the same limits, however the bytes are split', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json(), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 7 }), async (text, maxValues, maxDepth, chunkSize) => {
        const limits = { maxDepth, maxValues };
        const bytes = Buffer.from(text);
        let scanRefused = false;
        try {
          const scan = new JsonShapeScan(limits);
          for (let at = 0; at < bytes.length; at += chunkSize) scan.push(bytes.subarray(at, at + chunkSize));
        } catch (error) {
          expect(error).toBeInstanceOf(JsonLimitError);
          scanRefused = true;
        }
        const parsed = await outcome(() => parseJsonYielding(text, limits));
        if (scanRefused) expect(parsed.ok).toBe(false);
      }),
      { numRuns: 1000 },
    );
  });

  it('refuses 900,000 keys within the first few thousand, and a nesting bomb at the first bracket too many', () => {
    const scan = new JsonShapeScan({ maxDepth: 32, maxValues: 5000 });
    const text = Buffer.from('{' + Array.from({ length: 900_000 }, (_, i) => `"k${i}":"a,b:c"`).join(',') + '}');
    let refusedAt = -1;
    for (let at = 0; at < text.length && refusedAt < 0; at += 65_536) {
      try {
        scan.push(text.subarray(at, at + 65_536));
      } catch (error) {
        expect(error).toMatchObject({ limit: 'values' });
        refusedAt = at;
      }
    }
    expect(refusedAt).toBeGreaterThanOrEqual(0);
    expect(refusedAt).toBeLessThan(200_000);
    expect(() => new JsonShapeScan({ maxDepth: 32, maxValues: 1e9 }).push(Buffer.from('['.repeat(33)))).toThrow(/nested more than 32/);
  });
});
