// Properties of reading exports, over generated files (fast-check, seeded in test/support/fastCheckSeed.ts):
// - any logins written in any format read back as they were (what the format keeps of them);
// - hostile input (random bytes, random rows under a real header, random JSON items) ends in
//   parsed logins or a CoreError, never another error;
// - every data row is a login or a skipped row, and no reason repeats a row's content;
// - huge fields, wrong encodings, formulas, and 100,000 rows.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CoreError, LoginExportFormat } from '../../../../shared/ipc/index.ts';
import { readLoginExport, type ParsedExport } from '../../../../electron/core/logins/exports/readLoginExport.ts';
import {
  BITWARDEN_CSV_HEADER,
  bitwardenJson,
  CHROME_HEADER,
  chromeRow,
  csv,
  FIREFOX_HEADER,
  KEEPASSXC_HEADER,
  keptOf,
  ONEPASSWORD_CSV_HEADER,
  onePux,
  quote,
  writeExport,
  type FixtureLogin,
} from './exportWriters.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** Text as people and hostile files have it: any code point (controls, quotes, commas, line breaks, emoji), and formulas. */
const text = (maxLength: number) =>
  fc.oneof(fc.string({ unit: 'binary', maxLength }), fc.constantFrom("=cmd|' /C calc'!A0", '+SUM(1,2)', '-2+3', '@A1', '=HYPERLINK("https://evil.example")', '"', '""', ',', '\r\n', '\n'));
const nonEmpty = (maxLength: number) => text(maxLength).filter((value) => value !== '');

const loginArb: fc.Arbitrary<FixtureLogin> = fc.record({
  title: fc.option(nonEmpty(40), { nil: null }),
  // Bitwarden's CSV joins several addresses with commas: an address with one is not representable there.
  url: fc.option(
    fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), nonEmpty(60)).filter((value) => !value.includes(',')),
    { nil: null },
  ),
  username: text(40),
  password: nonEmpty(80),
  // Whole seconds: KeePassXC and 1PUX keep no finer.
  passwordChangedAt: fc.option(
    fc.integer({ min: Date.UTC(1990, 0, 1) / 1000, max: Date.UTC(2100, 0, 1) / 1000 }).map((seconds) => new Date(seconds * 1000).toISOString()),
    { nil: null },
  ),
});

async function outcome(bytes: Uint8Array): Promise<ParsedExport | CoreError> {
  try {
    return await readLoginExport(bytes);
  } catch (error) {
    if (error instanceof CoreError) return error;
    throw error;
  }
}

/** Every reason is a template filled with numbers: never a cell of the row. */
function expectReasonsWithoutContent(parsed: ParsedExport, cells: readonly string[]): void {
  for (const { row, reason } of parsed.skippedRows) {
    expect(reason.startsWith(`row ${row}: `) || reason.startsWith(`item ${row}: `)).toBe(true);
    for (const cell of cells) if (cell.length >= 4 && !/^\d+$/.test(cell)) expect(reason).not.toContain(cell);
  }
}

describe('round trip', () => {
  it('reads back, in every format, the logins written in it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LoginExportFormat.options), fc.array(loginArb, { maxLength: 12 }), async (format, logins) => {
        const parsed = await readLoginExport(writeExport(format, logins));
        expect(parsed.format).toBe(format);
        expect(parsed.skipped).toBe(0);
        expect(parsed.logins).toEqual(logins.map((login, index) => ({ row: index + 1, ...keptOf(format, login) })));
      }),
      { numRuns: 300 },
    );
  });
});

const HEADERS = [CHROME_HEADER, FIREFOX_HEADER, BITWARDEN_CSV_HEADER, ONEPASSWORD_CSV_HEADER, KEEPASSXC_HEADER];

describe('hostile input', () => {
  it('random bytes, with or without a byte order mark or a zip signature, end in logins or a CoreError', async () => {
    const prefix = fc.constantFrom([], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff], [0x50, 0x4b, 0x03, 0x04], [0x7b]);
    await fc.assert(
      fc.asyncProperty(prefix, fc.uint8Array({ maxLength: 400 }), async (head, body) => {
        const result = await outcome(new Uint8Array([...head, ...body]));
        if (result instanceof CoreError) expect(result.code).toBe('invalid-arguments');
        else expect(result.logins.length + result.skipped).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });

  it('under a real header, every quoted data row is a login or a skipped row, whatever its fields, and no reason repeats them', async () => {
    const row = fc.array(text(30), { minLength: 1, maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HEADERS), fc.array(row, { maxLength: 30 }), fc.constantFrom('\r\n', '\n'), async (header, rows, lineEnd) => {
        const parsed = await readLoginExport(utf8(csv([header, ...rows], lineEnd)));
        expect(parsed.logins.length + parsed.skipped).toBe(rows.length);
        expect(parsed.skippedRows.length).toBe(Math.min(parsed.skipped, 50));
        expectReasonsWithoutContent(parsed, rows.flat());
      }),
      { numRuns: 300 },
    );
  });

  it('under a real header, unquoted text with stray quotes and broken lines ends in logins or a CoreError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HEADERS), fc.string({ unit: 'binary', maxLength: 300 }), async (header, body) => {
        const result = await outcome(utf8(header.join(',') + '\n' + body));
        if (result instanceof CoreError) expect(result.code).toBe('invalid-arguments');
        else expectReasonsWithoutContent(result, [body]);
      }),
      { numRuns: 300 },
    );
  });

  it('every item of a Bitwarden JSON or 1PUX export, whatever its shape, is a login or a skipped item', async () => {
    const item = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record({ type: fc.integer({ min: 0, max: 6 }), login: fc.jsonValue({ maxDepth: 2 }), name: fc.jsonValue({ maxDepth: 1 }) }),
      fc.record({ categoryUuid: fc.constantFrom('001', '003', '005', 'x'), details: fc.jsonValue({ maxDepth: 3 }), overview: fc.jsonValue({ maxDepth: 2 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(item, { maxLength: 20 }), async (bitwarden, items) => {
        const parsed = await readLoginExport(bitwarden ? utf8(bitwardenJson(items)) : onePux(items));
        expect(parsed.logins.length + parsed.skipped).toBe(items.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('huge fields, wrong encodings, formulas, many rows', () => {
  it('skips a row with a field of megabytes and keeps the rows around it', async () => {
    const huge = 'A'.repeat(3 * 1024 * 1024);
    const login = { title: 'Example', url: 'https://example.com', username: 'alice@example.com', password: 'pw', passwordChangedAt: null };
    const parsed = await readLoginExport(utf8(csv([CHROME_HEADER, chromeRow(login), chromeRow({ ...login, password: huge }), chromeRow({ ...login, url: huge }), chromeRow(login)])));
    expect(parsed.logins.map((entry) => entry.row)).toEqual([1, 4]);
    expect(parsed.skippedRows.map((entry) => entry.reason)).toEqual(['row 2: password longer than 4,096 characters', 'row 3: web address longer than 2,048 characters']);
  });

  it('refuses every text in a legacy code page that is not also UTF-8, naming the first bad byte', async () => {
    // Windows-1252's letters above 0x7F, alone, are never UTF-8.
    const latin = fc.array(fc.integer({ min: 0xc0, max: 0xff }), { minLength: 1, maxLength: 5 });
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme-ascii', maxLength: 50 }), latin, async (before, bytes) => {
        const head = utf8(CHROME_HEADER.join(',') + '\n' + before.replaceAll('\r', ''));
        const file = new Uint8Array([...head, ...bytes]);
        const result = await outcome(file);
        expect(result).toBeInstanceOf(CoreError);
        expect((result as CoreError).message).toContain(`the byte at offset ${head.length.toLocaleString('en-US')} `);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps formulas in any field as text', async () => {
    const formula = fc.tuple(fc.constantFrom('=', '+', '-', '@', '\t=', '\r='), fc.string({ maxLength: 30 })).map(([start, rest]) => start + rest);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...LoginExportFormat.options), formula, formula, async (format, username, password) => {
        const login = { title: 'Example', url: 'https://example.com', username, password, passwordChangedAt: null };
        const parsed = await readLoginExport(writeExport(format, [login]));
        expect(parsed.logins[0]).toMatchObject({ username, password });
      }),
      { numRuns: 100 },
    );
  });

  it('reads 100,000 rows, yielding to the event loop as it goes', async () => {
    const rows = Array.from({ length: 100_000 }, (_, index) =>
      [`Site ${index}`, `https://site${index % 5000}.example.com/login`, `user${index}@example.com`, `pass-${index % 7000}`, ''].map(quote).join(','),
    );
    const file = utf8(`${CHROME_HEADER.join(',')}\r\n${rows.join('\r\n')}\r\n`);
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const reports: (number | null)[] = [];
    const parsed = await readLoginExport(file, { onProgress: (_done, total) => reports.push(total) });
    clearInterval(ticker);
    expect(parsed.logins).toHaveLength(100_000);
    expect(parsed.logins[99_999]).toEqual({
      row: 100_000,
      title: 'Site 99999',
      url: 'https://site4999.example.com/login',
      username: 'user99999@example.com',
      password: 'pass-1999',
      passwordChangedAt: null,
    });
    // Timers ran while it read: the loop was not held for the whole file.
    expect(turns).toBeGreaterThan(10);
    expect(reports).toContain(null);
    expect(reports.at(-1)).toBe(100_000);
  });
});
