import type { BreachList } from '../../shared/ipc/views.ts';
import { describe, expect, test, vi } from 'vitest';
import { countsText } from '../../renderer/features/breaches/counts.ts';
import { createHttpMonitor } from '../../renderer/lib/httpMonitor.ts';
import { SseParser, type SseMessage } from '../../renderer/lib/sse.ts';
import { EMPTY_FILTERS, formatHash, parseHash, toListQuery } from '../../renderer/lib/urlState.ts';
import { channels } from '../../shared/ipc/contract.ts';

describe('urlState', () => {
  test('round trip of a full route', () => {
    const hash = '#/breaches/Ad%2Fobe?text=x&domain=adobe.com&email=a%40b.c&dataClasses=Passwords&dataClasses=Usernames&unresolvedDataClasses=Passwords&includeSensitive=true&sort=name';
    const route = parseHash(hash);
    expect(route).toEqual({
      screen: 'breaches',
      breachId: 'Ad/obe',
      filters: { text: 'x', domain: 'adobe.com', email: 'a@b.c', dataClasses: ['Passwords', 'Usernames'], unresolvedDataClasses: ['Passwords'], includeSensitive: true, sort: 'name' },
    });
    expect(formatHash(route)).toBe(hash);
  });

  test('a stale or hand-edited URL gives the nearest valid route', () => {
    expect(parseHash('')).toEqual({ screen: 'overview', filters: EMPTY_FILTERS });
    expect(parseHash('#/nowhere?sort=sideways&includeSensitive=yes&dataClasses=&dataClasses=%20')).toEqual({ screen: 'overview', filters: EMPTY_FILTERS });
    expect(parseHash('#/breaches/%E0%A4%A')).toEqual({ screen: 'breaches', filters: EMPTY_FILTERS });
  });

  test('the list query is valid for the channel and omits empty filters', () => {
    const query = toListQuery({ ...EMPTY_FILTERS, text: '  pass ', dataClasses: ['Passwords'] });
    expect(query).toEqual({ includeSensitive: false, sort: 'breachDate', offset: 0, limit: 10_000, text: 'pass', dataClasses: ['Passwords'] });
    expect(channels['breaches-list'].input.safeParse(query).success).toBe(true);
  });

  test("the advanced filter: kept in the URL as compact JSON, sent as the query's metadata filter, a broken one dropped", () => {
    const route = parseHash(`#/breaches?filter=${encodeURIComponent('{ "isVerified": true, "pwnCount": {"$gt": 1000} }')}`);
    expect(route.filters.advanced).toBe('{"isVerified":true,"pwnCount":{"$gt":1000}}');
    expect(formatHash(route)).toBe(`#/breaches?filter=${encodeURIComponent('{"isVerified":true,"pwnCount":{"$gt":1000}}').replaceAll('%20', '+')}`);
    const query = toListQuery(route.filters);
    expect(query.metadataFilter).toEqual({ isVerified: true, pwnCount: { $gt: 1000 } });
    expect(channels['breaches-list'].input.safeParse(query).success).toBe(true);
    for (const broken of ['{"isVerified": ', '[1]', '{}', '"text"']) expect(parseHash(`#/breaches?filter=${encodeURIComponent(broken)}`).filters).toEqual(EMPTY_FILTERS);
    // The channel checks the fields with the search filter engine, naming where.
    const refused = channels['breaches-list'].input.safeParse({ ...query, metadataFilter: { pwnCount: { $gt: 'many' } } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['metadataFilter', 'pwnCount', '$gt'] });
  });
});

describe('counts line', () => {
  const list = { rows: [], total: 42, unresolvedByDataClass: { 'Email addresses': 40, Passwords: 17, Usernames: 20 }, hiddenSensitive: 0, includesHibp: true };
  test('names no data class when none is filtered', () => {
    expect(countsText(list, EMPTY_FILTERS)).toBe('42 breaches');
    const row = (unresolved: number) => ({ unresolved }) as BreachList['rows'][number];
    expect(countsText({ ...list, rows: [row(2), row(0), row(1)], total: 3, unresolvedByDataClass: { Passwords: 2 } }, EMPTY_FILTERS)).toBe('3 breaches · 2 with something to fix');
    expect(countsText({ ...list, rows: [row(0)], total: 1, unresolvedByDataClass: {} }, EMPTY_FILTERS)).toBe('1 breach · nothing left to fix');
  });
  test('names the picked unresolved classes', () => {
    expect(countsText(list, { ...EMPTY_FILTERS, unresolvedDataClasses: ['usernames', 'Phone numbers'] })).toBe('42 breaches · 20 with unresolved Usernames · 0 with unresolved Phone numbers');
  });
  test('a class picked by slug finds the count of its display name', () => {
    expect(countsText(list, { ...EMPTY_FILTERS, dataClasses: ['passwords', 'email-addresses'] })).toBe('42 breaches · 17 with unresolved Passwords · 40 with unresolved Email addresses');
  });
  test('singular', () => {
    expect(countsText({ ...list, total: 1, unresolvedByDataClass: {} }, EMPTY_FILTERS)).toBe('1 breach');
  });
  test('says how many sensitive breaches the list hides, in the right number', () => {
    expect(countsText({ ...list, total: 1, unresolvedByDataClass: {}, hiddenSensitive: 1 }, EMPTY_FILTERS)).toBe('1 breach · 1 sensitive breach hidden');
    expect(countsText({ ...list, hiddenSensitive: 3 }, { ...EMPTY_FILTERS, dataClasses: ['Passwords'] })).toBe('42 breaches · 17 with unresolved Passwords · 3 sensitive breaches hidden');
  });
});

describe('SSE parser', () => {
  test('events split across chunks, comments, multi-line data, CRLF', () => {
    const got: SseMessage[] = [];
    const parser = new SseParser((m) => got.push(m));
    parser.push(': connected\n\nevent: sync-changed\r');
    parser.push('\ndata: {"a":');
    parser.push('1}\n\n: heartbeat\n\ndata: x\ndata: y\n\n');
    expect(got).toEqual([
      { event: 'sync-changed', data: '{"a":1}' },
      { event: 'message', data: 'x\ny' },
    ]);
  });
});

function streamOf(chunks: string[], keepOpen = false): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (!keepOpen) controller.close();
    },
  });
}

describe('HTTP monitor', () => {
  test('invoke posts the request envelope with the secret and unwraps the result', async () => {
    const requests: { url: string; init: RequestInit }[] = [];
    const monitor = createHttpMonitor({
      getSecret: () => 's3cret',
      fetch: async (url, init) => {
        requests.push({ url: String(url), init: init ?? {} });
        const body = JSON.parse(String(init?.body)) as { id: number };
        return Response.json({ type: 'response', id: body.id, ok: true, result: { online: true } });
      },
    });
    await expect(monitor.invoke('sync-status', {})).resolves.toEqual({ online: true });
    expect(requests[0]?.url).toBe('/api/invoke');
    expect(requests[0]?.init.method).toBe('POST');
    expect((requests[0]?.init.headers as Record<string, string>)['x-monitor-secret']).toBe('s3cret');
    expect(JSON.parse(String(requests[0]?.init.body))).toEqual({ type: 'request', id: 1, channel: 'sync-status', args: {} });
    monitor.close();
  });

  test('preloaded channels are asked at once; the first invoke with no arguments takes that answer, later ones ask again', async () => {
    const asked: string[] = [];
    let answers = 0;
    const monitor = createHttpMonitor({
      getSecret: () => 'k',
      preload: ['auth-status', 'sync-status'],
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init?.body)) as { id: number; channel: string };
        asked.push(body.channel);
        return Response.json({ type: 'response', id: body.id, ok: true, result: { answer: ++answers } });
      },
    });
    // Asked before anyone invokes, in the order given.
    expect(asked).toEqual(['auth-status', 'sync-status']);
    await expect(monitor.invoke('sync-status', {})).resolves.toEqual({ answer: 2 });
    expect(asked).toHaveLength(2);
    // Taken once: the next call is a new request; arguments other than {} never take a preloaded answer.
    await expect(monitor.invoke('sync-status', {})).resolves.toEqual({ answer: 3 });
    await expect(monitor.invoke('auth-status', { other: true })).resolves.toEqual({ answer: 4 });
    await expect(monitor.invoke('auth-status', {})).resolves.toEqual({ answer: 1 });
    expect(asked).toEqual(['auth-status', 'sync-status', 'sync-status', 'auth-status']);
    monitor.close();
  });

  test('a preloaded call that fails rejects its taker with the usual error, and is no unhandled rejection when never taken', async () => {
    const monitor = createHttpMonitor({
      preload: ['auth-status', 'settings-get'],
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(monitor.invoke('auth-status', {})).rejects.toMatchObject({ code: 'unavailable' });
    monitor.close();
  });

  test('errors keep the core’s code and words; transport failures become "unavailable"', async () => {
    const monitor = createHttpMonitor({
      getSecret: () => 'k',
      fetch: async () => Response.json({ type: 'response', id: 1, ok: false, error: { code: 'not-found', message: 'no breach "X"' } }),
    });
    await expect(monitor.invoke('breach-get', { id: 'X' })).rejects.toEqual({ code: 'not-found', message: 'no breach "X"' });
    const down = createHttpMonitor({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(down.invoke('sync-status', {})).rejects.toMatchObject({ code: 'unavailable' });
    const refused = createHttpMonitor({ getSecret: () => 'old', fetch: async () => new Response('Refused', { status: 401 }) });
    await expect(refused.invoke('sync-status', {})).rejects.toMatchObject({ message: expect.stringContaining('Open the link it printed') });
  });

  test('events: one stream with the secret header, reconnected with backoff after a drop', async () => {
    const opened: RequestInit[] = [];
    const states: boolean[] = [];
    const monitor = createHttpMonitor({
      getSecret: () => 'k',
      minBackoffMs: 5,
      maxBackoffMs: 20,
      random: () => 1,
      fetch: async (_url, init) => {
        opened.push(init ?? {});
        const first = opened.length === 1;
        return new Response(streamOf(first ? ['event: data-changed\ndata: {"reason":"sync"}\n\n'] : ['event: data-changed\ndata: {"reason":"outbox"}\n\n'], !first), {
          headers: { 'content-type': 'text/event-stream' },
        });
      },
    });
    const got: unknown[] = [];
    monitor.onConnection?.((c) => states.push(c));
    monitor.on('data-changed', (p) => got.push(p));
    await expect.poll(() => got).toEqual([{ reason: 'sync' }, { reason: 'outbox' }]);
    expect(opened).toHaveLength(2);
    expect((opened[0]?.headers as Record<string, string>)['x-monitor-secret']).toBe('k');
    expect(states).toEqual([true, false, true]);
    monitor.close();
  });

  test('a listener that throws is reported, and the others still hear the event and the connection', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const monitor = createHttpMonitor({
        getSecret: () => 'k',
        fetch: async () => new Response(streamOf(['event: data-changed\ndata: {"reason":"sync"}\n\n'], true), { headers: { 'content-type': 'text/event-stream' } }),
      });
      const states: boolean[] = [];
      const got: unknown[] = [];
      monitor.onConnection?.(() => {
        throw new Error('connection listener broke');
      });
      monitor.onConnection?.((c) => states.push(c));
      monitor.on('data-changed', () => {
        throw new Error('event listener broke');
      });
      monitor.on('data-changed', (p) => got.push(p));
      await expect.poll(() => got).toEqual([{ reason: 'sync' }]);
      expect(states).toEqual([true]);
      expect(reported.mock.calls.map((call) => String(call[0]))).toEqual(['a connection listener failed', 'listener of "data-changed" failed']);
      monitor.close();
    } finally {
      reported.mockRestore();
    }
  });
});
