// VerifiedIdTokens (server/rtdb/authenticate.ts): an ID token's signature and claims are checked
// once per token until its `exp`; refusals are never remembered, nor a token past its `exp`.
import { describe, expect, it } from 'vitest';
import type { JWTPayload } from 'jose';
import { VerifiedIdTokens } from '../../../server/rtdb/authenticate.ts';

describe('VerifiedIdTokens', () => {
  it('checks a token once until its exp, answering each caller its own copy of the payload', async () => {
    let now = 1_000_000;
    const tokens = new VerifiedIdTokens(10, () => now);
    let checks = 0;
    const check = async (): Promise<JWTPayload> => (checks++, { sub: 'alice', exp: 2_000, email: 'a@example.com' });
    const first = await tokens.verify('token', check);
    first.sub = 'mallory';
    expect(await tokens.verify('token', check)).toEqual({ sub: 'alice', exp: 2_000, email: 'a@example.com' });
    expect(checks).toBe(1);
    // At exp the real check runs again (and decides).
    now = 2_000_000;
    await expect(tokens.verify('token', async () => Promise.reject(new Error('expired')))).rejects.toThrow('expired');
  });

  it('never remembers a refusal, and checks another token string on its own', async () => {
    const tokens = new VerifiedIdTokens(10, () => 0);
    await expect(tokens.verify('bad', async () => Promise.reject(new Error('bad signature')))).rejects.toThrow('bad signature');
    let checks = 0;
    expect(await tokens.verify('bad', async () => (checks++, { sub: 'x', exp: 10 }))).toEqual({ sub: 'x', exp: 10 });
    expect(checks).toBe(1);
    await expect(tokens.verify('bad.', async () => Promise.reject(new Error('tampered')))).rejects.toThrow('tampered');
  });

  it('keeps at most its bound, the oldest going first', async () => {
    const tokens = new VerifiedIdTokens(2, () => 0);
    let checks = 0;
    const check = async (): Promise<JWTPayload> => (checks++, { sub: 's', exp: 10 });
    for (const token of ['a', 'b', 'c', 'a']) await tokens.verify(token, check);
    expect(checks).toBe(4);
  });
});
