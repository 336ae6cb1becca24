// The Pwned Passwords stand-in is worth what it refuses: each rule of
// https://haveibeenpwned.com/API/v3#PwnedPasswords it plays, checked with a bare fetch.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha1Hex, startPwnedPasswordsStandIn, type PwnedPasswordsStandIn } from './pwnedPasswordsStandIn.ts';
import { eventually } from './waitFor.ts';

const PASSWORD = 'P@ssw0rd';
const HASH = sha1Hex(PASSWORD);
let standIn: PwnedPasswordsStandIn;
beforeEach(async () => {
  standIn = await startPwnedPasswordsStandIn({ [PASSWORD]: 52256 });
});
afterEach(() => standIn.close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${standIn.origin}${path}`, { headers });

describe('Pwned Passwords stand-in', () => {
  it('takes a 5-character hexadecimal prefix in any case, and refuses anything else with the documented 400', async () => {
    const upper = await (await get(`/range/${HASH.slice(0, 5)}`)).text();
    const lower = await (await get(`/range/${HASH.slice(0, 5).toLowerCase()}`)).text();
    expect(upper).toBe(`${HASH.slice(5)}:52256`);
    expect(lower).toBe(upper);
    for (const bad of ['ABCD', 'ABCDEF', 'GHIJK', HASH]) {
      const response = await get(`/range/${bad}`);
      expect(response.status, bad).toBe(400);
      expect(await response.text()).toBe('The hash prefix was not in a valid format');
    }
  });

  it('with Add-Padding answers 800 to 1,000 CRLF lines in all, the padding with a count of 0; without it, only the real lines', async () => {
    const text = await (await get(`/range/${HASH.slice(0, 5)}`, { 'add-padding': 'true' })).text();
    const lines = text.split('\r\n');
    expect(text).not.toMatch(/[^\r]\n/);
    expect(lines.length).toBeGreaterThanOrEqual(800);
    expect(lines.length).toBeLessThanOrEqual(1000);
    for (const line of lines) expect(line).toMatch(/^[0-9A-F]{35}:\d+$/);
    expect(lines.filter((line) => !line.endsWith(':0'))).toEqual([`${HASH.slice(5)}:52256`]);
    expect(lines).toEqual([...lines].sort());
    expect(await (await get('/range/FFFFF')).text()).toBe('');
  });

  it('goes offline (every connection cut, nothing recorded) and comes back', async () => {
    standIn.behaviour = 'offline';
    await expect(get('/range/ABCDE')).rejects.toThrow();
    expect(standIn.requests).toHaveLength(0);
    standIn.behaviour = 'answer';
    expect((await get('/range/ABCDE')).status).toBe(200);
    expect(standIn.requests).toHaveLength(1);
  });

  it('rate-limited answers 429 with Retry-After when one is set', async () => {
    standIn.behaviour = 'rate-limited';
    standIn.retryAfterSeconds = 3;
    const response = await get('/range/ABCDE');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
  });

  it('holds answers until released, counting the most in flight', async () => {
    standIn.hold();
    const answers = Promise.all(['AAAAA', 'BBBBB', 'CCCCC'].map((prefix) => get(`/range/${prefix}`).then((response) => response.status)));
    await eventually('three requests held', () => standIn.inFlight === 3);
    expect(standIn.requests).toHaveLength(0);
    standIn.release();
    expect(await answers).toEqual([200, 200, 200]);
    expect(standIn.maxInFlight).toBe(3);
    await eventually('nothing in flight', () => standIn.inFlight === 0);
  });

  it('setSeen replaces the truth, and countOf tells it', async () => {
    expect(standIn.countOf(PASSWORD)).toBe(52256);
    standIn.setSeen(new Map([['another', 4]]));
    expect(standIn.countOf(PASSWORD)).toBe(0);
    expect(standIn.countOf('another')).toBe(4);
    expect(await (await get(`/range/${HASH.slice(0, 5)}`)).text()).toBe('');
  });
});
