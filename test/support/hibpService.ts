// The reference service started against the HIBP stand-in (test/support/hibpStandIn.ts) with a
// simulated clock, and the few calls tests make of it: sign a subject in with its monitored
// addresses, read its breaches and checks with the headers that say what is known.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BreachDataHeaders, type UserBreach, type UserChecks } from '../../shared/api/index.ts';
import { startService, type RunningService } from '../../server/app.ts';
import type { ServiceConfigInput } from '../../server/config.ts';
import type { Logger } from '../../server/log.ts';
import type { HibpStandIn } from './hibpStandIn.ts';
import type { SimulatedClock } from './simulatedClock.ts';

/** A well-formed HIBP key (32 hex characters) the stand-in knows when a test lists it. */
export const KEY = '0123456789abcdef0123456789abcdef';
export const OTHER_KEY = 'fedcba9876543210fedcba9876543210';

export function tempDir(prefix: string, dirs: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

export async function startAgainst(
  standIn: HibpStandIn | undefined,
  clock: SimulatedClock | undefined,
  config: Partial<ServiceConfigInput> & { dataDir: string },
  logger?: Logger,
): Promise<RunningService> {
  return startService(
    {
      port: 0,
      dev: true,
      logLevel: 'silent',
      ...(standIn ? { hibpUrl: standIn.url } : {}),
      ...config,
    },
    { ...(clock ? { clock } : {}), ...(logger ? { logger } : {}) },
  );
}

/** Puts `sub`'s monitored addresses, mints its token and creates its monitoring user; the token. */
export async function signIn(service: RunningService, sub: string, emails: readonly string[]): Promise<string> {
  const put = await fetch(`${service.url}/__dev/accounts/${encodeURIComponent(sub)}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ emails }) });
  if (!put.ok) throw new Error(`PUT account: ${put.status} ${await put.text()}`);
  const minted = await fetch(`${service.url}/__dev/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub }) });
  const { access_token: token } = (await minted.json()) as { access_token: string };
  const created = await fetch(`${service.apiBaseUrl}/user`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  if (created.status !== 201 && created.status !== 202) throw new Error(`POST /user: ${created.status} ${await created.text()}`);
  return token;
}

export interface Known<T> {
  status: number;
  source: string | null;
  pending: number | null;
  body: T;
}

async function read<T>(url: string, token: string): Promise<Known<T>> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const pending = response.headers.get(BreachDataHeaders.pending);
  return { status: response.status, source: response.headers.get(BreachDataHeaders.source), pending: pending === null ? null : Number(pending), body: (await response.json()) as T };
}

export function breaches(service: RunningService, token: string, query = ''): Promise<Known<UserBreach[]>> {
  return read(`${service.apiBaseUrl}/user/breaches${query}`, token);
}

export function checks(service: RunningService, token: string): Promise<Known<UserChecks>> {
  return read(`${service.apiBaseUrl}/user/checks`, token);
}

/** Breach ids per address, sorted, as `GET /user/breaches` answers them. */
export function idsByEmail(list: readonly UserBreach[]): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const item of list) for (const account of item.breachedAccounts) (result[account.email] ??= []).push(item.breach.id);
  for (const ids of Object.values(result)) ids.sort();
  return result;
}
