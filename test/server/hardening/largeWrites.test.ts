// Large writes to the realtime database: refused by their size, depth or number of values
// before they are built into a tree or stored, whoever sends them; a write at the limit still
// lands. How long others wait meanwhile is measured by `npm run bench:hardening`, not here.
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_WRITE_BYTES, MAX_WRITE_VALUES } from '../../../server/rtdb/routes.ts';
import { devIdToken, useDevService } from '../../support/useDevService.ts';

const running = useDevService();
let idToken: string;
beforeAll(async () => {
  idToken = await devIdToken(running.service.url, 'alice');
});

/** `{"k0":0,"k1":1,…}` with `count` leaves. */
function flatObject(count: number): string {
  return '{' + Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',') + '}';
}

async function put(location: string, body: string, auth = true): Promise<{ status: number; error: string | undefined }> {
  const response = await fetch(`${running.service.url}/rtdb/${location}.json${auth ? `?auth=${idToken}` : ''}`, { method: 'PUT', body });
  const answer = (await response.json()) as { error?: string } | null;
  return { status: response.status, error: answer?.error };
}

async function read(location: string): Promise<unknown> {
  return (await fetch(`${running.service.url}/rtdb/${location}.json?auth=${idToken}`)).json();
}

describe('large writes to the realtime database', () => {
  it(`refuses a permitted write of 200,000 leaves (more than ${MAX_WRITE_VALUES} values) with 413, writing nothing`, async () => {
    const answer = await put('users/alice/big', flatObject(200_000));
    expect(answer.status).toBe(413);
    expect(answer.error).toMatch(new RegExp(`at most ${MAX_WRITE_VALUES} values.*write the data in parts`));
    expect(await read('users/alice/big')).toBeNull();
  });

  it('never takes an anonymous 15 MB write of 900,000 keys', async () => {
    const body = flatObject(900_000);
    expect(body.length).toBeGreaterThan(14_000_000);
    expect(body.length).toBeLessThan(MAX_WRITE_BYTES);
    const answer = await put('users/alice/big', body, false);
    // Refused for its size, or (where authorisation runs before the body is read) as unauthorised.
    expect([401, 413]).toContain(answer.status);
    expect(await read('users/alice/big')).toBeNull();
  });

  it('takes a write at the limit, and reads it back', async () => {
    // The object itself is one value: MAX_WRITE_VALUES - 1 leaves fill the limit exactly.
    const answer = await put('users/alice/full', flatObject(MAX_WRITE_VALUES - 1));
    expect(answer.status).toBe(200);
    const stored = (await read('users/alice/full')) as Record<string, number>;
    expect(Object.keys(stored)).toHaveLength(MAX_WRITE_VALUES - 1);
    expect(stored[`k${MAX_WRITE_VALUES - 2}`]).toBe(MAX_WRITE_VALUES - 2);
  });

  it('refuses data nested deeper than 32 levels while parsing, and a body past 16 MB before reading it', async () => {
    const deep = await put('users/alice/deep', '{"a":'.repeat(40) + '1' + '}'.repeat(40));
    expect(deep.status).toBe(400);
    expect(deep.error).toMatch(/nested more than 32/);
    const bomb = await put('users/alice/deep', '['.repeat(1_000_000));
    expect(bomb.status).toBe(400);

    const huge = await fetch(`${running.service.url}/rtdb/users/alice/huge.json?auth=${idToken}`, { method: 'PUT', body: 'x'.repeat(MAX_WRITE_BYTES + 1) });
    expect(huge.status).toBe(413);
  });
});
