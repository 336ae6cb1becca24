// A person's addresses (`/api/v1/user/emails`, CONTRACT.md "A person's addresses") on the person's
// own loopback service (`--owner`: they are the operator, so added addresses are verified at
// once), against the HIBP stand-in, on SQLite and on PostgreSQL: adding, the limit, the identity
// account's address, states as the lookups answer, and removal taking exposures and resolutions along.
import { rmSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { RunningService } from '../../server/app.ts';
import { skipWithoutFixture } from '../support/fixtures.ts';
import { breaches, KEY, startAgainst, tempDir } from '../support/hibpService.ts';
import { HIBP_FIXTURE_CATALOG, HibpStandIn } from '../support/hibpStandIn.ts';
import { emailsApi, tokenFor } from '../support/personEmails.ts';
import { SimulatedClock } from '../support/simulatedClock.ts';
import { databaseAt, DIALECTS, useStoreDialects, type Dialect } from '../support/storeDialects.ts';

const START = Date.parse('2026-03-02T09:00:00Z');
const dirs: string[] = [];
const running: { service?: RunningService; standIn?: HibpStandIn } = {};
const dialects = useStoreDialects();
afterEach(async () => {
  await running.service?.close();
  await running.standIn?.close();
  running.service = undefined;
  running.standIn = undefined;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const ACCOUNTS = { 'alice@example.com': ['Adobe', 'LinkedIn'], 'pat@example.com': ['Canva'] };

describe.skipIf(skipWithoutFixture(HIBP_FIXTURE_CATALOG, 'person emails')).each(DIALECTS)("a person's addresses on the owner's loopback service (%s)", (dialect: Dialect) => {
  async function start(config: { maxEmails?: number } = {}) {
    const place = await dialects.place(dialect);
    if (!place) return undefined;
    const clock = new SimulatedClock(START, 1);
    const standIn = await HibpStandIn.start({ keys: { [KEY]: { rpm: 10, stealerLogs: false, domains: [] } }, accounts: ACCOUNTS, stealerLogs: {}, now: () => clock.now() });
    running.standIn = standIn;
    const dataDir = tempDir('person-emails-', dirs);
    const service = await startAgainst(standIn, clock, {
      dataDir,
      dev: false,
      owner: true,
      hibpApiKey: KEY,
      catalogFile: HIBP_FIXTURE_CATALOG,
      ...config,
      ...(dialect === 'postgres' ? { databaseUrl: place.url } : {}),
    });
    running.service = service;
    const db = databaseAt(dialect === 'postgres' ? { url: place.url } : { file: `${dataDir}/service.db` });
    return { clock, standIn, service, db };
  }

  it('adds addresses verified at once (the person is the operator), checks them and says how each stands', async (context) => {
    const started = await start();
    if (!started) return context.skip();
    const { clock, standIn, service } = started;
    const token = await tokenFor(service, 'owner');

    const empty = await emailsApi.list(service, token);
    expect(empty).toMatchObject({ status: 200, mode: 'operator', body: [] });

    const added = await emailsApi.add(service, token, 'Alice@Example.com');
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ email: 'alice@example.com', verified: true, verifiedBy: 'operator', origin: 'added', removable: true, state: 'pending', breachCount: null, checkedAt: null });
    expect(Date.parse(added.body.addedAt!)).toBe(START);
    expect((await emailsApi.add(service, token, 'clean@example.net')).status).toBe(201);

    // Looked up promptly: the queue was told of each address as it was added.
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
    expect(
      standIn.requests
        .filter((r) => r.path.startsWith('breachedaccount/'))
        .map((r) => r.path.split('?')[0])
        .sort(),
    ).toEqual(['breachedaccount/alice%40example.com', 'breachedaccount/clean%40example.net']);
    const listed = await emailsApi.list(service, token);
    expect(listed.body.map((item) => [item.email, item.state, item.breachCount])).toEqual([
      ['alice@example.com', 'checked', 2],
      ['clean@example.net', 'checked', 0],
    ]);
    expect(listed.body.every((item) => item.checkedAt !== null && item.problem === null)).toBe(true);
  });

  it('refuses a malformed address naming the field, one already listed, and one past the limit', async (context) => {
    const started = await start({ maxEmails: 2 });
    if (!started) return context.skip();
    const { service } = started;
    const token = await tokenFor(service, 'owner');

    const malformed = await emailsApi.add(service, token, 'not an address');
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors).toEqual([{ pointer: '/email', message: 'must be a valid email address' }]);
    const missing = await fetch(`${service.apiBaseUrl}/user/emails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"mail":"a@example.com"}',
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { errors: { pointer: string }[] }).errors.map((e) => e.pointer).sort()).toEqual(['', '/email']);

    expect((await emailsApi.add(service, token, 'one@example.com')).status).toBe(201);
    const again = await emailsApi.add(service, token, 'ONE@example.com');
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('one@example.com is already on your list');
    expect((await emailsApi.add(service, token, 'two@example.com')).status).toBe(201);
    const third = await emailsApi.add(service, token, 'three@example.com');
    expect(third.status).toBe(422);
    expect(third.body.detail).toBe('you can monitor at most 2 addresses on this service: remove one to add another');
    expect((await emailsApi.list(service, token)).body.map((item) => item.email)).toEqual(['one@example.com', 'two@example.com']);
  });

  it("lists the identity account's own address (vouched for by the provider) and does not let it be removed", async (context) => {
    const started = await start({ maxEmails: 2 });
    if (!started) return context.skip();
    const { service } = started;
    const token = await tokenFor(service, 'pat', { email: 'Pat@example.com', emailVerified: true });
    const listed = await emailsApi.list(service, token);
    expect(listed.body).toMatchObject([{ email: 'pat@example.com', verified: true, verifiedBy: 'identity-provider', origin: 'identity', removable: false, addedAt: null }]);
    const removal = await emailsApi.remove(service, token, 'pat@example.com');
    expect(removal.status).toBe(409);
    expect(removal.body!.detail).toMatch(/^pat@example\.com is the address of your identity account/);
    // It counts toward the limit.
    expect((await emailsApi.add(service, token, 'other@example.com')).status).toBe(201);
    expect((await emailsApi.add(service, token, 'third@example.com')).status).toBe(422);

    // An address the provider does not vouch for is not the person's: not listed, not monitored.
    const unvouched = await tokenFor(service, 'sam', { email: 'sam@example.com', emailVerified: false });
    expect((await emailsApi.list(service, unvouched)).body).toEqual([]);
  });

  it('removes an address with its exposures, resolutions and lookup state, leaving the others', async (context) => {
    const started = await start();
    if (!started) return context.skip();
    const { clock, service, db } = started;
    const token = await tokenFor(service, 'owner');
    await emailsApi.add(service, token, 'alice@example.com');
    await emailsApi.add(service, token, 'pat@example.com');
    await clock.runUntil(async () => (await breaches(service, token)).pending === 0, 5 * 60_000);
    const adobe = (await breaches(service, token)).body.find((item) => item.breach.id === 'Adobe')!;
    const resolved = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ breachId: 'Adobe', dataClasses: adobe.breach.dataClasses.slice(0, 1), resolved: true }]),
    });
    expect(resolved.status).toBe(204);
    const rowsOf = async (email: string) => {
      const counts: Record<string, number> = {};
      for (const table of ['exposures', 'exposure_records', 'resolutions', 'address_checks', 'person_emails']) {
        const [row] = await db.rows<{ n: number | string }>(`SELECT count(*) AS n FROM ${table} WHERE email = '${email}'`);
        counts[table] = Number(row!.n);
      }
      return counts;
    };
    expect(await rowsOf('alice@example.com')).toEqual({ exposures: 2, exposure_records: 1, resolutions: 1, address_checks: 1, person_emails: 1 });

    expect((await emailsApi.remove(service, token, 'ALICE@example.com')).status).toBe(204);
    expect(await rowsOf('alice@example.com')).toEqual({ exposures: 0, exposure_records: 0, resolutions: 0, address_checks: 0, person_emails: 0 });
    expect(await rowsOf('pat@example.com')).toEqual({ exposures: 1, exposure_records: 1, resolutions: 0, address_checks: 1, person_emails: 1 });
    const after = await breaches(service, token);
    expect(after.body.map((item) => item.breach.id)).toEqual(['Canva']);
    expect((await emailsApi.list(service, token)).body.map((item) => item.email)).toEqual(['pat@example.com']);
    const again = await emailsApi.remove(service, token, 'alice@example.com');
    expect(again.status).toBe(404);
    expect(again.body!.detail).toBe('alice@example.com is not on your list');
  });
});
