// Sign-ins under way (oidc-provider's interactions) are bounded, on SQLite and PostgreSQL alike
// (server/identity/interactionLimits.ts): every anonymous `GET /oidc/auth` stored one for an hour
// with no cap, so one client could grow the provider's storage by gigabytes an hour. Now each
// client address keeps a few, its oldest making way for its newest, and the provider a total
// beyond which a new sign-in is refused with 429 — never ending someone else's. Floods come from
// other loopback addresses (127.0.0.2, …: all of 127/8 is this machine); the person signing in
// from 127.0.0.1 must finish whatever the floods did.
import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it, type TestContext } from 'vitest';
import { createDevIdentityProvider, DEFAULT_API_AUDIENCE, type DevIdentityProvider } from '../../../server/identity/index.ts';
import { SignInsFullError, withRequestingClient, type InteractionLimits } from '../../../server/identity/interactionLimits.ts';
import { openOidcPostgresStore } from '../../../server/identity/postgresState.ts';
import { openOidcSqliteStore, type OidcStateStore } from '../../../server/identity/sqliteAdapter.ts';
import { createPool } from '../../../server/storage/pool.ts';
import { DIALECTS, useStoreDialects, type Dialect } from '../../support/storeDialects.ts';
import { ownPool, migratePostgresAt } from '../../support/storeOpeners.ts';
import { authorizationUrl, Browser, CALLBACK, formAction, memoryLogger, pkcePair } from './harness.ts';

const dialects = useStoreDialects({ preparePostgres: async (url) => void (await migratePostgresAt(url)) });

interface Running {
  idp: DevIdentityProvider;
  /** Live interactions in the provider's storage. */
  liveInteractions(): Promise<number>;
}

async function startProvider(ctx: TestContext, dialect: Dialect, interactionLimits: InteractionLimits): Promise<Running> {
  const place = (await dialects.place(dialect)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
  const dataDir = mkdtempSync(join(tmpdir(), 'interaction-limits-'));
  // The provider needs the server's port for its issuer; the server hands requests to it once made.
  const mounted: { idp?: DevIdentityProvider } = {};
  const server: Server = createServer((req, res) => (mounted.idp?.owns(req.url ?? '/') ? mounted.idp.handle(req, res) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The service hands the provider its one pool (the database migrated); here, a pool of the test's own.
  const pool = dialect === 'postgres' ? ownPool(place.url) : undefined;
  const idp = await createDevIdentityProvider({
    issuer: `${origin}/oidc`,
    audience: DEFAULT_API_AUDIENCE,
    dataDir,
    logger: memoryLogger().logger,
    databasePool: pool,
    interactionLimits,
  });
  mounted.idp = idp;
  ctx.onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await idp.close();
    await pool?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    idp,
    async liveInteractions() {
      if (dialect === 'postgres') {
        const [row] = await place.rows<{ count: string }>("SELECT count(*) AS count FROM oidc_models WHERE model = 'Interaction' AND expires_at > now()");
        return Number(row!.count);
      }
      const db = new Database(join(dataDir, 'identity', 'provider.db'), { readonly: true });
      try {
        return (db.prepare("SELECT count(*) AS count FROM oidc_entities WHERE model = 'Interaction' AND expires_at > unixepoch()").get() as { count: number }).count;
      } finally {
        db.close();
      }
    },
  };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A GET sent from `localAddress` (another loopback address stands for another client), with `cookie`. */
function getFrom(localAddress: string, url: URL, cookie?: string): Promise<Answer & { setCookies: string[] }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { localAddress, headers: cookie ? { cookie } : {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, setCookies: res.headers['set-cookie'] ?? [], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** An anonymous sign-in started from `localAddress`: its answer, and where its interaction page is with the cookies it set. */
async function startSignInFrom(idp: DevIdentityProvider, localAddress: string): Promise<Answer & { page?: URL; cookie: string }> {
  const start = authorizationUrl(idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256' });
  const answer = await getFrom(localAddress, start);
  const cookie = answer.setCookies.map((header) => header.split(';', 1)[0]).join('; ');
  const location = answer.headers.location;
  return { ...answer, cookie, ...(typeof location === 'string' ? { page: new URL(location, start) } : {}) };
}

/** The person's sign-in from 127.0.0.1, stopped at the login page until `finish` is called. */
async function personAtLoginPage(idp: DevIdentityProvider): Promise<{ finish(): Promise<string> }> {
  const browser = new Browser();
  const start = authorizationUrl(idp, { codeChallenge: pkcePair().challenge, codeChallengeMethod: 'S256' });
  const login = await browser.follow(await browser.request(start), start, CALLBACK);
  if (!('page' in login)) throw new Error('expected the login page');
  const loginHtml = await login.page.text();
  expect(loginHtml).toContain('Sign in');
  return {
    async finish() {
      const afterLogin = formAction(loginHtml, login.url);
      const consent = await browser.follow(await browser.submitForm(afterLogin, { email: 'alice@example.com', password: 'correct horse' }), afterLogin, CALLBACK);
      if (!('page' in consent)) throw new Error('expected the consent page');
      const consentHtml = await consent.page.text();
      expect(consentHtml).toContain('Allow');
      const afterConsent = formAction(consentHtml, consent.url);
      const done = await browser.follow(await browser.submitForm(afterConsent, { decision: 'allow' }), afterConsent, CALLBACK);
      if (!('callback' in done)) throw new Error(`expected a redirect to the app: ${await done.page.text()}`);
      return done.callback.searchParams.get('code') ?? '';
    },
  };
}

describe.each(DIALECTS)('sign-ins under way on %s', (dialect) => {
  it('keeps at most the cap per address, its oldest making way, while a person elsewhere signs in undisturbed', async (ctx) => {
    const { idp, liveInteractions } = await startProvider(ctx, dialect, { perAddress: 3, total: 100 });
    const person = await personAtLoginPage(idp);

    const flood = [];
    for (let i = 0; i < 12; i++) flood.push(await startSignInFrom(idp, '127.0.0.2'));
    // Never refused: each new one ends that address's oldest.
    expect(flood.map(({ status }) => status)).toEqual(Array(12).fill(303));
    expect(await liveInteractions()).toBe(3 + 1);
    // Exactly the newest three still lead to a login page, however many were started within one second.
    const pages = await Promise.all(flood.map(({ page, cookie }) => getFrom('127.0.0.2', page!, cookie)));
    expect(pages.map(({ body }) => (body.includes('Sign-in expired') ? 'ended' : body.includes('Sign in') ? 'login' : body.slice(0, 80)))).toEqual([
      ...Array<string>(9).fill('ended'),
      'login',
      'login',
      'login',
    ]);

    expect(await person.finish()).not.toBe('');
  });

  it('refuses a new sign-in with 429, Retry-After and a page saying why at the total, never ending one under way', async (ctx) => {
    const { idp, liveInteractions } = await startProvider(ctx, dialect, { perAddress: 2, total: 4 });
    const person = await personAtLoginPage(idp);
    for (const address of ['127.0.0.2', '127.0.0.2', '127.0.0.3']) expect((await startSignInFrom(idp, address)).status).toBe(303);
    expect(await liveInteractions()).toBe(4);

    for (const address of ['127.0.0.3', '127.0.0.4']) {
      const refused = await startSignInFrom(idp, address);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.body).toContain('Too many sign-ins');
      expect(refused.body).toContain('Try again in a minute');
    }
    expect(await liveInteractions()).toBe(4);
    // An address at its own cap still starts one: its own oldest makes way.
    expect((await startSignInFrom(idp, '127.0.0.2')).status).toBe(303);
    expect(await liveInteractions()).toBe(4);

    // The person's sign-in moves on (its login step's interaction is replaced by the consent step's) and ends with a code.
    expect(await person.finish()).not.toBe('');
  });

  it('admits the next step of a resumed sign-in and a sign-in moving on even at the total, and nothing new', async (ctx) => {
    const place = (await dialects.place(dialect)) ?? ctx.skip('PostgreSQL could not start (see the message above)');
    let store: OidcStateStore;
    if (dialect === 'sqlite') store = openOidcSqliteStore(place.file, { perAddress: 5, total: 1 });
    else {
      const pool = createPool({ url: place.url, max: 2, onIdleError: () => {} });
      store = openOidcPostgresStore(pool, { perAddress: 5, total: 1 });
      ctx.onTestFinished(() => pool.end());
    }
    ctx.onTestFinished(() => store.close());
    const interactions = store.adapterFactory('Interaction');
    await withRequestingClient('127.0.0.5', false, () => interactions.upsert('first', { kind: 'Interaction' }, 600));
    await expect(withRequestingClient('127.0.0.6', false, () => interactions.upsert('new', { kind: 'Interaction' }, 600))).rejects.toBeInstanceOf(SignInsFullError);
    // A sign-in moving on stores its interaction again; a resumed one stores its next step.
    await withRequestingClient('127.0.0.6', false, () => interactions.upsert('first', { kind: 'Interaction', result: {} }, 600));
    await withRequestingClient('127.0.0.5', true, () => interactions.upsert('next', { kind: 'Interaction' }, 600));
    expect(await interactions.find('first')).toMatchObject({ result: {} });
    expect(await interactions.find('next')).toBeDefined();
    expect(await interactions.find('new')).toBeUndefined();
  });
});
