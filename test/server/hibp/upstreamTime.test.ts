// Upstream time has a bound: a `retry-after` (seconds or an HTTP-date, RFC 9110 §10.2.3) is a
// wait of at most a day; no wait of the service becomes a 1 ms timer however long it is (Node
// arms anything over 2³¹ − 1 ms for 1 ms); an error answer's body is quoted short. The service
// under a long retry-after: retryAfterHold.test.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseCommandLine } from '../../../server/config.ts';
import { HibpClient } from '../../../server/hibp/client.ts';
import { systemClock } from '../../../server/hibp/clock.ts';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from '../../../server/hibp/retryAfter.ts';
import { MAX_TIMER_MS, setLongTimeout } from '../../../server/timers.ts';
import { KEY } from '../../support/hibpService.ts';

/** Node's own warnings about timers it armed for 1 ms instead of the delay asked for, while `work` runs. */
async function overflowWarningsDuring(work: () => Promise<void>): Promise<number> {
  let count = 0;
  const onWarning = (warning: Error) => {
    if (warning.name === 'TimeoutOverflowWarning') count++;
  };
  process.on('warning', onWarning);
  try {
    await work();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return count;
}

describe('Retry-After as RFC 9110 §10.2.3 writes it', () => {
  const now = Date.parse('2026-03-02T09:00:00Z');
  it('reads delay-seconds and the three HTTP-date forms, and nothing else', () => {
    expect(parseRetryAfter('7', now)).toEqual({ ms: 7000, askedMs: 7000 });
    expect(parseRetryAfter('Mon, 02 Mar 2026 09:01:30 GMT', now)).toEqual({ ms: 90_000, askedMs: 90_000 });
    expect(parseRetryAfter('Monday, 02-Mar-26 09:01:30 GMT', now)).toEqual({ ms: 90_000, askedMs: 90_000 });
    expect(parseRetryAfter('Mon Mar  2 09:01:30 2026', now)).toEqual({ ms: 90_000, askedMs: 90_000 });
    // A date already past: ask again now.
    expect(parseRetryAfter('Sun, 01 Mar 2026 09:00:00 GMT', now)).toEqual({ ms: 0, askedMs: 0 });
    for (const bad of ['', '-5', '1.5', 'soon', '2026-03-02T09:01:30Z', null, undefined]) expect(parseRetryAfter(bad, now)).toBeUndefined();
  });

  it('takes at most a day, however much was asked', () => {
    expect(parseRetryAfter('999999999', now)).toEqual({ ms: MAX_RETRY_AFTER_MS, askedMs: 999_999_999_000 });
    expect(parseRetryAfter('9'.repeat(400), now)).toEqual({ ms: MAX_RETRY_AFTER_MS, askedMs: Number.POSITIVE_INFINITY });
    expect(parseRetryAfter('Fri, 31 Dec 9999 23:59:59 GMT', now)!.ms).toBe(MAX_RETRY_AFTER_MS);
  });
});

describe('waits of any length', () => {
  it('a sleep longer than 2³¹ − 1 ms does not end after 1 ms, nor warn', async () => {
    let ended = false;
    const stop = new AbortController();
    const warnings = await overflowWarningsDuring(async () => {
      void systemClock.sleep(MAX_TIMER_MS + 60_000, stop.signal).then(() => (ended = true));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(ended).toBe(false);
    expect(warnings).toBe(0);
    stop.abort();
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(true);
  });

  it('setLongTimeout arms a chain of timers no longer than 2³¹ − 1 ms each, and can be cancelled', async () => {
    let fired = 0;
    const warnings = await overflowWarningsDuring(async () => {
      const long = setLongTimeout(() => fired++, 3 * MAX_TIMER_MS, { unref: true });
      const short = setLongTimeout(() => fired++, 5);
      await new Promise((resolve) => setTimeout(resolve, 40));
      long.cancel();
      short.cancel();
    });
    expect(fired).toBe(1);
    expect(warnings).toBe(0);
  });
});

describe('timeouts in the configuration', () => {
  it('are at most 2³¹ − 1 ms, the longest a timer holds, saying so', () => {
    const data = { BREACH_SERVICE_DATA: '/tmp/unused-breach-service' };
    for (const flag of ['--hibp-timeout', '--headers-timeout', '--request-timeout', '--keep-alive-timeout', '--idle-timeout', '--shutdown-grace']) {
      expect(() => parseCommandLine([flag, String(MAX_TIMER_MS + 1)], data), flag).toThrow(ConfigError);
      expect(() => parseCommandLine([flag, String(MAX_TIMER_MS + 1)], data), flag).toThrow(/at most 2147483647 ms/);
      expect(() => parseCommandLine([flag, String(MAX_TIMER_MS)], data), flag).not.toThrow();
    }
  });
});

describe('HIBP-compatible addresses in front of HIBP', () => {
  // A proxy or cache in front of HIBP may answer with an HTTP-date (RFC 9110 §10.2.3 allows either
  // form) and may put a whole page in an error's body: a plain server stands in for it here.
  let server: Server;
  let base: string;
  let answer: (path: string) => { status: number; headers?: Record<string, string>; body: string };
  afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

  async function start(): Promise<void> {
    server = createServer((req, res) => {
      const { status, headers = {}, body } = answer(req.url ?? '/');
      res.writeHead(status, { 'content-type': 'text/plain', ...headers });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
  }

  it('a 429 with an HTTP-date is a wait until then; one years away is a day', async () => {
    await start();
    const client = new HibpClient({ baseUrl: base, apiKey: KEY, timeoutMs: 5000 });
    answer = () => ({ status: 429, headers: { 'retry-after': new Date(Date.now() + 120_000).toUTCString() }, body: '' });
    const soon = (await client.breachedAccount('alice@example.com').catch((e: unknown) => e)) as { kind: string; retryAfterMs: number };
    expect(soon.kind).toBe('rate-limited');
    expect(soon.retryAfterMs).toBeGreaterThan(110_000);
    expect(soon.retryAfterMs).toBeLessThanOrEqual(120_000);
    answer = () => ({ status: 429, headers: { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }, body: '' });
    expect(await client.breaches().catch((e: unknown) => e)).toMatchObject({ kind: 'rate-limited', retryAfterMs: MAX_RETRY_AFTER_MS });
    answer = () => ({ status: 429, headers: { 'retry-after': '999999999' }, body: '' });
    expect(await client.subscriptionStatus().catch((e: unknown) => e)).toMatchObject({ kind: 'rate-limited', retryAfterMs: MAX_RETRY_AFTER_MS, retryAfterAskedMs: 999_999_999_000 });
  });

  it("a 401's body is quoted at most 200 characters long, on one line", async () => {
    const page = `Access denied\n${'x'.repeat(1_000_000)}`;
    answer = () => ({ status: 401, body: page });
    const client = new HibpClient({ baseUrl: base, apiKey: KEY, timeoutMs: 5000 });
    for (const call of [() => client.breaches(), () => client.breachedAccount('alice@example.com')]) {
      const error = (await call().catch((e: unknown) => e)) as Error;
      expect(error).toMatchObject({ kind: 'key-refused', status: 401 });
      expect(error.message).toContain('Access denied x');
      expect(error.message.length).toBeLessThan(400);
      expect(error.message).not.toContain('\n');
    }
  });
});
