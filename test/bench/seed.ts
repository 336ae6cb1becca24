// Seeding shared by the benchmarks: the bench catalog and the typical and heavy users, set up
// through the service's development surface so every benchmark measures the same data.
import type { Breach } from '../../shared/api/index.ts';
import { generateDemoCatalog } from '../../server/catalog/demoCatalog.ts';

/** A call to the service that must succeed. */
export async function call(origin: string, method: string, pathname: string, body?: unknown, token?: string): Promise<Response> {
  const response = await fetch(origin + pathname, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response;
}

/** Adds 2,000 generated breaches (ids prefixed `Bench`) to the catalog; returns their ids. */
export async function seedBenchCatalog(origin: string): Promise<string[]> {
  return addBreaches(
    origin,
    generateDemoCatalog({ seed: 2024, count: 2000 }).map((breach) => ({ ...breach, id: `Bench${breach.id}` })),
  );
}

/** Adds breaches through the bulk path: one catalog transaction and one details write per 1,000. */
export async function addBreaches(origin: string, breaches: readonly Breach[]): Promise<string[]> {
  for (let i = 0; i < breaches.length; i += 1000) await call(origin, 'POST', '/__dev/breaches/batch', breaches.slice(i, i + 1000));
  return breaches.map((breach) => breach.id);
}

export function benchEmails(sub: string, emailCount: number): string[] {
  return Array.from({ length: emailCount }, (_, i) => `${sub}-${i}@bench.example`);
}

/** Creates a user whose emails are affected by `breachIds`, with about a third of classes resolved. */
export async function seedUser(origin: string, sub: string, emailCount: number, breachIds: string[]): Promise<string> {
  const emails = benchEmails(sub, emailCount);
  await call(origin, 'PUT', `/__dev/accounts/${sub}`, { emails });
  const perEmail = new Map(emails.map((email) => [email, [] as string[]]));
  breachIds.forEach((id, j) => {
    perEmail.get(emails[j % emailCount]!)!.push(id);
    if (j % 3 === 0) perEmail.get(emails[(j * 7 + 1) % emailCount]!)!.push(id);
  });
  for (const [email, ids] of perEmail) await call(origin, 'PUT', '/__dev/exposures', { email, breachIds: [...new Set(ids)] });
  const token = await mintToken(origin, sub);
  await call(origin, 'POST', '/api/v1/user', undefined, token);
  const items = breachIds.filter((_, j) => j % 3 === 1).map((breachId) => ({ breachId, dataClasses: ['Email addresses'], resolved: true }));
  for (let i = 0; i < items.length; i += 1000) await call(origin, 'POST', '/api/v1/user/breaches/resolutions', items.slice(i, i + 1000), token);
  return token;
}

export async function mintToken(origin: string, sub: string, expiresIn = 3600): Promise<string> {
  const { access_token: token } = (await (await call(origin, 'POST', '/__dev/token', { sub, expiresIn })).json()) as { access_token: string };
  return token;
}

/** The two users of the benchmarks: typical (5 emails, 60 breaches) and heavy (20 emails, 2,000 breaches). */
export const BENCH_USERS = {
  typical: { sub: 'bench-typical', emails: 5, breaches: 60 },
  heavy: { sub: 'bench-heavy', emails: 20, breaches: 2000 },
} as const;
