// The redactor remembers the secrets this process was given so logs and errors never show them,
// and remembers only the newest ones: a refresh brings three, so without a bound an app running
// for months would hold thousands and test each against every log line (issue 35, bounds).
import { describe, expect, it } from 'vitest';
import { MAX_REMEMBERED_SECRETS, Redactor } from '../../../electron/core/auth/redact.ts';

// Not shaped like a token (short, punctuated): only the remembered list can scrub these.
const secret = (i: number) => `state.${String(i).padStart(4, '0')}`;

describe('Redactor', () => {
  it('scrubs every secret it was given, and a token-shaped one it never was', () => {
    const redactor = new Redactor();
    redactor.add(secret(1), undefined, 'short');
    expect(redactor.scrub(`state=${secret(1)}&x=short`)).toBe('state=[redacted]&x=short');
    expect(redactor.scrub(`token ${'A'.repeat(43)}`)).toBe('token [redacted]');
  });

  it(`remembers the newest ${MAX_REMEMBERED_SECRETS} secrets, however many a long run brings`, () => {
    const redactor = new Redactor();
    for (let i = 1; i <= 1000; i++) redactor.add(secret(i));
    expect(redactor.size).toBe(MAX_REMEMBERED_SECRETS);
    expect(redactor.scrub(secret(1000))).toBe('[redacted]');
    expect(redactor.scrub(secret(1000 - MAX_REMEMBERED_SECRETS + 1))).toBe('[redacted]');
    expect(redactor.scrub(secret(1000 - MAX_REMEMBERED_SECRETS))).toBe(secret(1000 - MAX_REMEMBERED_SECRETS));
  });

  it('keeps a secret given again as the newest, and forgets one on request', () => {
    const redactor = new Redactor();
    redactor.add(secret(0));
    for (let i = 1; i < MAX_REMEMBERED_SECRETS; i++) redactor.add(secret(i));
    redactor.add(secret(0));
    redactor.add(secret(MAX_REMEMBERED_SECRETS));
    expect(redactor.scrub(secret(0))).toBe('[redacted]');
    expect(redactor.scrub(secret(1))).toBe(secret(1));
    redactor.forget(secret(0));
    expect(redactor.scrub(secret(0))).toBe(secret(0));
  });
});
