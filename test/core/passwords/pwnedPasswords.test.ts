// Pwned Passwords from the core's side, against the stand-in of the range API
// (test/support/pwnedPasswordsStandIn.ts): what reaches it is exactly `/range/<5 hex>` with
// `Add-Padding: true` and nothing else about the password; padding is dropped; failures are
// sentences; and the channel admits nothing but 5 upper-case hexadecimal characters.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { channels, CoreError } from '../../../shared/ipc/index.ts';
import { createPasswordHandlers } from '../../../electron/core/handlers/passwordHandlers.ts';
import { fetchPwnedRange, PwnedRangeError } from '../../../electron/core/passwords/pwnedPasswordsRange.ts';
import { DEFAULT_SETTINGS } from '../../support/settings.ts';
import { sha1Hex, startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from '../../support/pwnedPasswordsStandIn.ts';

const SECRET = 'P@ssw0rd';
let standIn: PwnedPasswordsStandIn;

beforeAll(async () => {
  standIn = await startPwnedPasswordsStandIn({ [SECRET]: 52256, 'another one': 3 });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.length = 0;
  standIn.behaviour = 'answer';
});

const handlers = () => createPasswordHandlers({ settings: { get: () => ({ ...DEFAULT_SETTINGS, pwnedPasswordsUrl: standIn.origin }) } });

describe('passwords-range', () => {
  it('sends only the 5-character prefix, with padding asked for; the count is found by suffix, padding dropped', async () => {
    const hash = sha1Hex(SECRET);
    const range = await handlers()['passwords-range']({ prefix: hash.slice(0, 5) });
    expect(range.entries.find((entry) => entry.suffix === hash.slice(5))?.count).toBe(52256);
    // The stand-in padded to 800–1,000 lines; every one with a count of 0 is gone.
    expect(range.entries.every((entry) => entry.count > 0)).toBe(true);
    expect(range.entries.length).toBeLessThan(5);

    expect(standIn.requests).toHaveLength(1);
    const [received] = standIn.requests;
    expect(received!.method).toBe('GET');
    expect(received!.path).toMatch(/^\/range\/[0-9A-F]{5}$/);
    expect(received!.path).toBe(`/range/${hash.slice(0, 5)}`);
    expect(received!.query).toBe('');
    expect(received!.body).toBe('');
    expect(received!.headers['add-padding']).toBe('true');
    // Nothing else about the password anywhere in the request: not the password, not the rest of its hash.
    const everything = JSON.stringify(received);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(hash.slice(5, 12));
    expect(everything.toUpperCase()).not.toContain(hash.slice(5, 12));
  });

  it('a prefix with no breached password answers an empty list (after dropping padding)', async () => {
    const range = await handlers()['passwords-range']({ prefix: 'FFFFF' });
    expect(range.entries).toEqual([]);
  });

  it('reads LF-only lines too (a proxy may rewrite them)', async () => {
    standIn.behaviour = 'lf-lines';
    const hash = sha1Hex(SECRET);
    const range = await handlers()['passwords-range']({ prefix: hash.slice(0, 5) });
    expect(range.entries.find((entry) => entry.suffix === hash.slice(5))?.count).toBe(52256);
  });

  it('failures are sentences a person can act on', async () => {
    standIn.behaviour = 'server-error';
    await expect(handlers()['passwords-range']({ prefix: 'ABCDE' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/^Pwned Passwords answered 503\./) });
    standIn.behaviour = 'garbage';
    await expect(handlers()['passwords-range']({ prefix: 'ABCDE' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('cannot read (line 1)') });
    await expect(fetchPwnedRange({ baseUrl: 'http://127.0.0.1:9', prefix: 'ABCDE' })).rejects.toMatchObject({ code: 'unavailable', message: expect.stringContaining('could not be reached') });
  });

  it('each failure carries its kind, so a caller that retries decides from it and not from the words', async () => {
    const kindOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'answered',
        (error: unknown) => (error instanceof PwnedRangeError ? { kind: error.kind, retryAfterMs: error.retryAfterMs, code: error.code } : error),
      );
    const ask = (baseUrl = standIn.origin) => fetchPwnedRange({ baseUrl, prefix: 'ABCDE' });
    standIn.behaviour = 'server-error';
    expect(await kindOf(ask())).toEqual({ kind: 'server', retryAfterMs: undefined, code: 'unavailable' });
    standIn.behaviour = 'rate-limited';
    standIn.retryAfterSeconds = 4;
    expect(await kindOf(ask())).toEqual({ kind: 'rate-limited', retryAfterMs: 4000, code: 'unavailable' });
    standIn.behaviour = 'garbage';
    expect(await kindOf(ask())).toEqual({ kind: 'unreadable', retryAfterMs: undefined, code: 'unavailable' });
    standIn.behaviour = 'offline';
    expect(await kindOf(ask())).toEqual({ kind: 'offline', retryAfterMs: undefined, code: 'unavailable' });
    standIn.behaviour = 'answer';
    expect(await kindOf(ask(`${standIn.origin}/elsewhere`))).toEqual({ kind: 'refused', retryAfterMs: undefined, code: 'unavailable' });
    expect(await kindOf(ask())).toBe('answered');
  });

  it('property: the answer is read as the documented lines say, CRLF or LF, and the first line that is not one is named', async () => {
    // The documentation's format, read the plain way: split into lines, each `SUFFIX:COUNT`.
    const reference = (text: string) => {
      const lines = text.split(/\r?\n/);
      const entries: Array<{ suffix: string; count: number }> = [];
      for (let i = 0; i < lines.length; i++) {
        if (lines[i] === '' && i === lines.length - 1) continue;
        const match = /^([0-9A-F]{35}):(\d{1,10})$/.exec(lines[i]!);
        if (!match) return `line ${i + 1}`;
        if (Number(match[2]) > 0) entries.push({ suffix: match[1]!, count: Number(match[2]) });
      }
      return entries;
    };
    const hex = fc.constantFrom(...'0123456789ABCDEF');
    const validLine = fc
      .tuple(
        fc.string({ unit: hex, minLength: 35, maxLength: 35 }),
        fc.oneof(fc.constant('0'), fc.integer({ min: 0, max: 99_999 }).map(String), fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 12 })),
      )
      .map(([suffix, count]) => `${suffix}:${count}`);
    // Near misses: a character changed, dropped or added anywhere.
    const nearMiss = fc
      .tuple(validLine, fc.nat(), fc.constantFrom('', 'a', 'G', ' ', ':', '\r', '-', '0'))
      .map(([line, at, put]) => line.slice(0, at % (line.length + 1)) + put + line.slice((at % (line.length + 1)) + (put === '0' ? 0 : 1)));
    const line = fc.oneof({ arbitrary: validLine, weight: 4 }, { arbitrary: nearMiss, weight: 1 }, { arbitrary: fc.string({ maxLength: 40 }), weight: 1 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 12 }), fc.constantFrom('\r\n', '\n'), fc.constantFrom('', '\r\n', '\n'), async (lines, separator, ending) => {
        const text = lines.join(separator) + (lines.length > 0 ? ending : '');
        const expected = reference(text);
        const read = await fetchPwnedRange({ baseUrl: 'http://pwned.invalid', prefix: 'ABCDE', fetch: () => Promise.resolve(new Response(text)) }).then(
          (range) => range.entries,
          (error: Error) => /\((line \d+)\)/.exec(error.message)?.[1] ?? error.message,
        );
        expect(read).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('nothing but 5 upper-case hexadecimal characters can reach the core: the channel refuses the rest', async () => {
    const input = channels['passwords-range'].input;
    expect(input.safeParse({ prefix: '21BD1' }).success).toBe(true);
    for (const bad of ['21bd1', '21BD12', '21BD', 'P@ssw', sha1Hex(SECRET), SECRET]) expect(input.safeParse({ prefix: bad }).success, bad).toBe(false);
    expect(input.safeParse({ prefix: '21BD1', password: SECRET }).success).toBe(false);
    // And the request function checks again before any network.
    await expect(fetchPwnedRange({ baseUrl: standIn.origin, prefix: SECRET })).rejects.toThrow(/5 hexadecimal characters/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('a base URL with a path keeps it (a proxy under a path); one with a trailing slash does not double it', async () => {
    await expect(fetchPwnedRange({ baseUrl: `${standIn.origin}/proxy`, prefix: 'ABCDE' })).rejects.toBeInstanceOf(CoreError);
    expect(standIn.requests.at(-1)?.path).toBe('/proxy/range/ABCDE');
    await fetchPwnedRange({ baseUrl: `${standIn.origin}/`, prefix: 'ABCDE' });
    expect(standIn.requests.at(-1)?.path).toBe('/range/ABCDE');
  });
});
