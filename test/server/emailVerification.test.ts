// Proving an address on a service that several people use: a one-time code sent through a real
// SMTP server (test/support/smtpServer.ts, the `smtp-server` package) and read from the message
// it received. Until the code is entered the address is never looked up (the HIBP stand-in hears
// nothing of it), listed in /user/breaches or counted; wrong and expired codes, codes tried too
// often and too many sends are refused with words a person can act on. SQLite and PostgreSQL.
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startService, type RunningService, type ServiceOptions } from '../../server/app.ts';
import { EmailRules } from '../../shared/api/index.ts';
import { skipWithoutFixture } from '../support/fixtures.ts';
import { breaches, checks, KEY, tempDir } from '../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../support/hibpStandIn.ts';
import { emailsApi, tokenFor } from '../support/personEmails.ts';
import { SimulatedClock } from '../support/simulatedClock.ts';
import { TestSmtpServer } from '../support/smtpServer.ts';
import { DIALECTS, useStoreDialects, type Dialect } from '../support/storeDialects.ts';

const START = Date.parse('2026-03-02T09:00:00Z');
const dirs: string[] = [];
const running: { service?: RunningService; standIn?: HibpStandIn; smtp?: TestSmtpServer } = {};
const dialects = useStoreDialects();
afterEach(async () => {
  await running.service?.close();
  await running.standIn?.close();
  await running.smtp?.close();
  running.service = undefined;
  running.standIn = undefined;
  running.smtp = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ACCOUNTS = { 'alice@example.com': ['Adobe', 'LinkedIn'], 'pat@example.com': ['Canva'] };
const lookupsOf = (standIn: HibpStandIn, email: string) => standIn.requests.filter((r) => r.path.startsWith(`breachedaccount/${encodeURIComponent(email)}`));

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'email verification')).each(DIALECTS)('addresses proven by a code sent by email (%s)', (dialect: Dialect) => {
  async function start(options: { smtpUrl?: string | null; codeRules?: ServiceOptions['codeRules'] } = {}) {
    const place = await dialects.place(dialect);
    if (!place) return undefined;
    const clock = new SimulatedClock(START, 1);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10, stealerLogs: false, domains: [] } }, accounts: ACCOUNTS, stealerLogs: {}, now: () => clock.now() });
    running.standIn = standIn;
    const smtp = await TestSmtpServer.start();
    running.smtp = smtp;
    const smtpUrl = options.smtpUrl === undefined ? smtp.url : options.smtpUrl;
    const service = await startService(
      {
        port: 0,
        logLevel: 'silent',
        dataDir: tempDir('email-verification-', dirs),
        hibpUrl: standIn.url,
        hibpApiKey: KEY,
        catalogFile: HIBP_FIXTURE_CATALOG,
        ...(smtpUrl ? { smtpUrl } : {}),
        ...(dialect === 'postgres' ? { databaseUrl: place.url } : {}),
      },
      { clock, ...(options.codeRules ? { codeRules: options.codeRules } : {}) },
    );
    running.service = service;
    // Pat signs in with an address the provider vouches for, and adds another.
    const token = await tokenFor(service, 'pat', { email: 'pat@example.com', emailVerified: true });
    return { clock, standIn, smtp, service, token };
  }

  it('keeps an added address unlooked-up, unlisted and uncounted until the code from the message is entered', async (context) => {
    const started = await start();
    if (!started) return context.skip();
    const { clock, standIn, smtp, service, token } = started;

    const added = await emailsApi.add(service, token, 'Alice@Example.com');
    expect(added.status).toBe(201);
    expect(added.mode).toBe('code');
    expect(added.body).toMatchObject({ email: 'alice@example.com', verified: false, verifiedBy: null, state: 'unverified', removable: true, breachCount: null });
    expect(Date.parse(added.body.codeExpiresAt!)).toBe(START + EmailRules.codeLifetimeSec * 1000);

    // The message, as the mail server received it.
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail!.to).toEqual(['alice@example.com']);
    expect(mail!.from).toBe('breach-monitor@localhost');
    const code = smtp.lastCode('alice@example.com');
    expect(mail!.raw).toContain(`Enter ${code} in Breach Monitor`);

    // Minutes pass: the identity address is checked, the unverified one is not even asked about.
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
    await clock.advanceBy(5 * 60_000);
    expect(lookupsOf(standIn, 'alice@example.com')).toEqual([]);
    const before = await breaches(service, token);
    expect(before.body.flatMap((item) => item.breachedAccounts.map((account) => account.email))).toEqual(['pat@example.com']);
    expect(before.pending).toBe(0);
    expect((await checks(service, token)).body.addresses.map((address) => address.email)).toEqual(['pat@example.com']);

    // A wrong code is refused saying so, and how many tries are left; malformed, naming the field.
    const wrong = await emailsApi.verify(service, token, 'alice@example.com', code === '000000' ? '111111' : '000000');
    expect(wrong.status).toBe(400);
    expect(wrong.body!.detail).toBe(`that is not the code sent to alice@example.com: ${EmailRules.maxCodeAttempts - 1} tries left`);
    expect(wrong.body!.errors).toEqual([{ pointer: '/code', message: 'is not the code sent to this address' }]);
    const malformed = await emailsApi.verify(service, token, 'alice@example.com', '12ab');
    expect(malformed.status).toBe(400);
    expect(malformed.body!.errors).toEqual([{ pointer: '/code', message: `must be the ${EmailRules.codeDigits} digits from the message` }]);

    const right = await emailsApi.verify(service, token, 'alice@example.com', code);
    expect(right.status).toBe(204);
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0 && lookupsOf(standIn, 'alice@example.com').length > 0, 5 * 60_000);
    const after = await breaches(service, token);
    expect(after.body.map((item) => item.breach.id).sort()).toEqual(['Adobe', 'Canva', 'LinkedIn']);
    const listed = await emailsApi.list(service, token);
    expect(listed.body.map((item) => [item.email, item.origin, item.verifiedBy, item.state, item.breachCount])).toEqual([
      ['pat@example.com', 'identity', 'identity-provider', 'checked', 1],
      ['alice@example.com', 'added', 'code', 'checked', 2],
    ]);
    // Entered again once verified: still verified, nothing else.
    expect((await emailsApi.verify(service, token, 'alice@example.com', code)).status).toBe(204);
  });

  it('refuses an expired code, and a code entered wrong too often, until a new one is sent', async (context) => {
    const started = await start({ codeRules: { ...EmailRules, maxCodeAttempts: 2 } });
    if (!started) return context.skip();
    const { clock, smtp, service, token } = started;
    await emailsApi.add(service, token, 'alice@example.com');
    const first = smtp.lastCode('alice@example.com');

    await clock.advanceBy(EmailRules.codeLifetimeSec * 1000);
    const expired = await emailsApi.verify(service, token, 'alice@example.com', first);
    expect(expired.status).toBe(410);
    expect(expired.body!.detail).toBe('the code sent to alice@example.com expired at 09:15 UTC: send a new one with POST /user/emails/alice%40example.com/verification-code');

    const resent = await emailsApi.resend(service, token, 'alice@example.com');
    expect(resent.status).toBe(200);
    expect(smtp.to('alice@example.com')).toHaveLength(2);
    const second = smtp.lastCode('alice@example.com');
    const wrong = second === '000000' ? '111111' : '000000';
    expect((await emailsApi.verify(service, token, 'alice@example.com', wrong)).body!.detail).toBe('that is not the code sent to alice@example.com: 1 try left');
    expect((await emailsApi.verify(service, token, 'alice@example.com', wrong)).body!.detail).toMatch(/: no tries left; send a new one/);
    // Even the right code no longer works.
    const spent = await emailsApi.verify(service, token, 'alice@example.com', second);
    expect(spent.status).toBe(429);
    expect(spent.body!.detail).toBe('the code sent to alice@example.com was entered wrong 2 times, so it no longer works: send a new one with POST /user/emails/alice%40example.com/verification-code');
    expect((await emailsApi.list(service, token)).body.find((item) => item.email === 'alice@example.com')).toMatchObject({ verified: false, state: 'unverified' });

    await emailsApi.resend(service, token, 'alice@example.com');
    expect((await emailsApi.verify(service, token, 'alice@example.com', smtp.lastCode('alice@example.com'))).status).toBe(204);
    expect((await emailsApi.resend(service, token, 'alice@example.com')).body.detail).toBe('alice@example.com is verified already: there is no code to send');
  });

  it('limits sends per address and per person, in words, and adds nothing past the limit', async (context) => {
    const started = await start({ codeRules: { ...EmailRules, maxSendsPerAddress: 2, maxSendsPerPerson: 3 } });
    if (!started) return context.skip();
    const { clock, smtp, service, token } = started;
    await emailsApi.add(service, token, 'alice@example.com');
    expect((await emailsApi.resend(service, token, 'alice@example.com')).status).toBe(200);
    const tooMany = await emailsApi.resend(service, token, 'alice@example.com');
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.detail).toBe('too many codes were sent to alice@example.com: at most 2 in an hour; use the last one, or try again later');
    expect(smtp.to('alice@example.com')).toHaveLength(2);

    expect((await emailsApi.add(service, token, 'second@example.com')).status).toBe(201);
    const overPerson = await emailsApi.add(service, token, 'third@example.com');
    expect(overPerson.status).toBe(429);
    expect(overPerson.body.detail).toBe('too many codes were sent for your addresses: at most 3 in an hour; try again later');
    expect(smtp.to('third@example.com')).toEqual([]);
    expect((await emailsApi.list(service, token)).body.map((item) => item.email)).toEqual(['pat@example.com', 'alice@example.com', 'second@example.com']);

    // Removing and adding again does not reset the count; the window passing does.
    expect((await emailsApi.remove(service, token, 'alice@example.com')).status).toBe(204);
    expect((await emailsApi.add(service, token, 'alice@example.com')).status).toBe(429);
    await clock.advanceBy(3600 * 1000 + 60_000);
    expect((await emailsApi.add(service, token, 'alice@example.com')).status).toBe(201);
  });

  it('says why an address cannot be added where no mail server is configured, or the mail server does not take the message', async (context) => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const down = await start({ smtpUrl: `smtp://127.0.0.1:${closedPort}` });
    if (!down) return context.skip();
    const failed = await emailsApi.add(down.service, down.token, 'alice@example.com');
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toMatch(/^the code could not be sent to alice@example\.com: the mail server \(127\.0\.0\.1:\d+\) did not take the message: .*; try again later$/);
    expect((await emailsApi.list(down.service, down.token)).body.map((item) => item.email)).toEqual(['pat@example.com']);
    await running.service?.close();
    await running.standIn?.close();
    await running.smtp?.close();

    const none = await start({ smtpUrl: null });
    if (!none) return context.skip();
    const refused = await emailsApi.add(none.service, none.token, 'alice@example.com');
    expect(refused.status).toBe(503);
    expect(refused.body.detail).toMatch(/^this service cannot send verification codes \(it was started without --smtp-url\)/);
    expect((await emailsApi.list(none.service, none.token)).mode).toBe('unavailable');
  });
});
