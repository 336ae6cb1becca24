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

  /** A browser host's `/api/batch` and `/api/events` over `answer`, with event mark `mark` (changed by the test as events would). */
  function fakeHost(answer: (channel: string, args: unknown) => unknown, options: { mark?: () => string; hello?: boolean } = {}) {
    const batches: { channel: string; args: unknown }[][] = [];
    const singles: { channel: string; args: unknown }[] = [];
    let streams = 0;
    const mark = options.mark ?? (() => 'host1.0');
    const fetch: typeof globalThis.fetch = async (url, init) => {
      if (String(url) === '/api/events') {
        streams++;
        return new Response(streamOf(options.hello === false ? [] : [`event: hello\ndata: ${JSON.stringify({ mark: mark() })}\n\n`], true), { headers: { 'content-type': 'text/event-stream' } });
      }
      const body = JSON.parse(String(init?.body)) as { requests?: { id: number; channel: string; args: unknown }[]; id: number; channel: string; args: unknown };
      if (String(url) === '/api/batch') {
        batches.push(body.requests!.map(({ channel, args }) => ({ channel, args })));
        const taken = mark();
        return Response.json({ mark: taken, responses: body.requests!.map((request) => ({ type: 'response', id: request.id, ok: true, result: answer(request.channel, request.args) })) });
      }
      singles.push({ channel: body.channel, args: body.args });
      return Response.json({ type: 'response', id: body.id, ok: true, result: answer(body.channel, body.args) });
    };
    return { fetch, batches, singles, streams: () => streams };
  }

  test('preloaded requests go at once, one round trip per batch; the first invoke of the same question takes that answer, later ones ask again', async () => {
    let answers = 0;
    const host = fakeHost((channel) => ({ channel, answer: ++answers }));
    const monitor = createHttpMonitor({
      getSecret: () => 'k',
      fetch: host.fetch,
      preload: [[{ channel: 'auth-status' }, { channel: 'sync-status' }], [{ channel: 'breaches-list', args: { sort: 'name', limit: 40 } }]],
    });
    // Asked before anyone invokes: two batches, in the order given, arguments `{}` when left out.
    expect(host.batches).toEqual([
      [
        { channel: 'auth-status', args: {} },
        { channel: 'sync-status', args: {} },
      ],
      [{ channel: 'breaches-list', args: { sort: 'name', limit: 40 } }],
    ]);
    await expect(monitor.invoke('sync-status', {})).resolves.toEqual({ channel: 'sync-status', answer: 2 });
    // The same arguments in another key order are the same question.
    await expect(monitor.invoke('breaches-list', { limit: 40, sort: 'name' })).resolves.toEqual({ channel: 'breaches-list', answer: 3 });
    expect(host.singles).toEqual([]);
    // Taken once: the next call is a new request; other arguments never take a preloaded answer.
    await expect(monitor.invoke('sync-status', {})).resolves.toEqual({ channel: 'sync-status', answer: 4 });
    await expect(monitor.invoke('auth-status', { other: true })).resolves.toEqual({ channel: 'auth-status', answer: 5 });
    await expect(monitor.invoke('auth-status', undefined)).resolves.toEqual({ channel: 'auth-status', answer: 1 });
    expect(host.singles.map((single) => single.channel)).toEqual(['sync-status', 'auth-status']);
    monitor.close();
  });

  test('a preloaded batch that fails rejects its takers with the usual error, and is no unhandled rejection when never taken', async () => {
    const down = createHttpMonitor({
      preload: [[{ channel: 'auth-status' }, { channel: 'settings-get' }]],
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(down.invoke('auth-status', {})).rejects.toMatchObject({ code: 'unavailable' });
    // One answer of a batch may fail alone, with the core's words.
    const partly = createHttpMonitor({
      getSecret: () => 'k',
      preload: [[{ channel: 'auth-status' }, { channel: 'breach-get', args: { id: 'X' } }]],
      fetch: async (_url, init) => {
        const { requests } = JSON.parse(String(init?.body)) as { requests: { id: number }[] };
        return Response.json({
          mark: 'h.0',
          responses: [
            { type: 'response', id: requests[0]!.id, ok: true, result: { state: 'signed-out' } },
            { type: 'response', id: requests[1]!.id, ok: false, error: { code: 'not-found', message: 'no breach "X"' } },
          ],
        });
      },
    });
    await expect(partly.invoke('breach-get', { id: 'X' })).rejects.toEqual({ code: 'not-found', message: 'no breach "X"' });
    await expect(partly.invoke('auth-status', {})).resolves.toEqual({ state: 'signed-out' });
    // An answer that is not the batch asked (another count, other ids, no mark) is refused in words.
    for (const wrong of [
      (ids: number[]) => ({ mark: 'h.0', responses: [{ type: 'response', id: ids[0], ok: true, result: 1 }] }),
      (ids: number[]) => ({ mark: 'h.0', responses: ids.map((id) => ({ type: 'response', id: id + 100, ok: true, result: 1 })) }),
      (ids: number[]) => ({ responses: ids.map((id) => ({ type: 'response', id, ok: true, result: 1 })) }),
    ]) {
      const monitor = createHttpMonitor({
        getSecret: () => 'k',
        preload: [[{ channel: 'auth-status' }, { channel: 'sync-status' }]],
        fetch: async (_url, init) => Response.json(wrong((JSON.parse(String(init?.body)) as { requests: { id: number }[] }).requests.map((request) => request.id))),
      });
      await expect(monitor.invoke('sync-status', {})).rejects.toMatchObject({ code: 'internal', message: expect.stringContaining('cannot read') });
    }
    for (const monitor of [down, partly]) monitor.close();
  });

  test('the stream’s hello says whether an event was sent since the first answers; connected is reported after it', async () => {
    const heard: [boolean, boolean][] = [];
    let events = 0;
    const host = fakeHost(() => ({}), { mark: () => `host1.${events}` });
    const quiet = createHttpMonitor({ getSecret: () => 'k', fetch: host.fetch, preload: [[{ channel: 'auth-status' }], [{ channel: 'overview-get' }]] });
    await quiet.invoke('auth-status', {});
    await quiet.invoke('overview-get', {});
    quiet.onConnection?.((connected) => heard.push([connected, quiet.missedSinceFirstAnswers()]));
    await expect.poll(() => heard).toEqual([[true, false]]);
    quiet.close();

    // An event between the answers and the stream (the host's count moved): a change may be missed.
    const moved = createHttpMonitor({ getSecret: () => 'k', fetch: host.fetch, preload: [[{ channel: 'auth-status' }]] });
    await moved.invoke('auth-status', {});
    events++;
    const heardMoved: [boolean, boolean][] = [];
    moved.onConnection?.((connected) => heardMoved.push([connected, moved.missedSinceFirstAnswers()]));
    await expect.poll(() => heardMoved).toEqual([[true, true]]);
    moved.close();

    // The same count on another host instance (restarted in between) is not the same mark.
    const restarted = fakeHost(() => ({}), { mark: () => `host2.${events}` });
    let batchAnswered = false;
    const other = createHttpMonitor({
      getSecret: () => 'k',
      fetch: async (url, init) => {
        if (String(url) === '/api/batch') {
          batchAnswered = true;
          return host.fetch(url, init);
        }
        return restarted.fetch(url, init);
      },
      preload: [[{ channel: 'auth-status' }]],
    });
    await expect.poll(() => batchAnswered).toBe(true);
    await other.invoke('auth-status', {});
    const heardOther: boolean[] = [];
    other.onConnection?.(() => heardOther.push(other.missedSinceFirstAnswers()));
    await expect.poll(() => heardOther).toEqual([true]);
    other.close();

    // Nothing preloaded, or a stream without a hello: the transport cannot vouch for anything.
    const none = createHttpMonitor({ getSecret: () => 'k', fetch: host.fetch });
    const heardNone: boolean[] = [];
    none.onConnection?.(() => heardNone.push(none.missedSinceFirstAnswers()));
    await expect.poll(() => heardNone).toEqual([true]);
    none.close();
    const silent = fakeHost(() => ({}), { hello: false });
    const mute = createHttpMonitor({
      getSecret: () => 'k',
      fetch: async (url, init) =>
        String(url) === '/api/events'
          ? new Response(streamOf(['event: data-changed\ndata: {"reason":"sync"}\n\n'], true), { headers: { 'content-type': 'text/event-stream' } })
          : silent.fetch(url, init),
      preload: [[{ channel: 'auth-status' }]],
    });
    const heardMute: boolean[] = [];
    const got: unknown[] = [];
    mute.on('data-changed', (payload) => got.push(payload));
    mute.onConnection?.(() => heardMute.push(mute.missedSinceFirstAnswers()));
    // …and its first message is an event like any other.
    await expect.poll(() => got).toEqual([{ reason: 'sync' }]);
    expect(heardMute).toEqual([true]);
    mute.close();
  });

  test('a preloaded answer not taken when the stream opens is dropped: the next invoke asks the core', async () => {
    let answers = 0;
    const host = fakeHost(() => ({ answer: ++answers }));
    const monitor = createHttpMonitor({ getSecret: () => 'k', fetch: host.fetch, preload: [[{ channel: 'auth-status' }], [{ channel: 'overview-get' }]] });
    await monitor.invoke('auth-status', {});
    const opened: boolean[] = [];
    monitor.onConnection?.((connected) => opened.push(connected));
    await expect.poll(() => opened).toEqual([true]);
    await expect(monitor.invoke('overview-get', {})).resolves.toEqual({ answer: 3 });
    expect(host.singles).toEqual([{ channel: 'overview-get', args: {} }]);
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
