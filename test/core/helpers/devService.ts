// The reference service in this process, with its development surface, for tests that need
// the real HTTP contract (tokens, validation, ETags) rather than a fake.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Breach, UserBreach } from '../../../shared/api/index.ts';

export interface DevService {
  origin: string;
  apiBaseUrl: string;
  close(): Promise<void>;
  dev(method: string, pathname: string, body: unknown): Promise<unknown>;
  putAccount(sub: string, emails: string[], deleted?: boolean): Promise<void>;
  putExposures(email: string, breachIds: string[]): Promise<void>;
  addBreach(breach: Partial<Breach> & { id: string }): Promise<Breach>;
  token(sub: string): Promise<string>;
  /** A user whose account and exposures are set (no demo data), with `POST /user` done. */
  createUser(sub: string, exposures: Record<string, string[]>): Promise<string>;
  /** `GET /user/breaches` straight from the service (no client), with a query string. */
  list(token: string, search?: string): Promise<UserBreach[]>;
  resolve(token: string, items: unknown[]): Promise<number>;
}

export async function startDevService(): Promise<DevService> {
  const { startService } = await import('../../../server/app.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'core-test-service-'));
  const service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
  const origin = service.url;

  async function dev(method: string, pathname: string, body: unknown): Promise<unknown> {
    const response = await fetch(origin + pathname, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : undefined;
  }
  async function token(sub: string): Promise<string> {
    return ((await dev('POST', '/__dev/token', { sub })) as { access_token: string }).access_token;
  }
  return {
    origin,
    apiBaseUrl: service.apiBaseUrl,
    async close() {
      await service.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    dev,
    async putAccount(sub, emails, deleted) {
      await dev('PUT', `/__dev/accounts/${encodeURIComponent(sub)}`, { emails, ...(deleted === undefined ? {} : { deleted }) });
    },
    async putExposures(email, breachIds) {
      await dev('PUT', '/__dev/exposures', { email, breachIds });
    },
    async addBreach(breach) {
      return (await dev('POST', '/__dev/breaches', {
        domain: `${breach.id.toLowerCase()}.example`,
        breachDate: '2020-01-15',
        addedDate: '2020-02-01T10:00:00Z',
        dataClasses: ['Email addresses', 'Passwords'],
        isSensitive: false,
        ...breach,
      })) as Breach;
    },
    token,
    async createUser(sub, exposures) {
      const emails = Object.keys(exposures);
      await dev('PUT', `/__dev/accounts/${encodeURIComponent(sub)}`, { emails });
      for (const [email, ids] of Object.entries(exposures)) await dev('PUT', '/__dev/exposures', { email, breachIds: ids });
      const bearer = await token(sub);
      const created = await fetch(service.apiBaseUrl + '/user', { method: 'POST', headers: { authorization: `Bearer ${bearer}` } });
      if (created.status !== 201 && created.status !== 202) throw new Error(`POST /user answered ${created.status}`);
      return bearer;
    },
    async list(bearer, search = 'includeSensitive=true') {
      const response = await fetch(`${service.apiBaseUrl}/user/breaches${search ? `?${search}` : ''}`, { headers: { authorization: `Bearer ${bearer}` } });
      if (!response.ok) throw new Error(`GET /user/breaches answered ${response.status}: ${await response.text()}`);
      return (await response.json()) as UserBreach[];
    },
    async resolve(bearer, items) {
      const response = await fetch(`${service.apiBaseUrl}/user/breaches/resolutions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify(items),
      });
      await response.arrayBuffer();
      return response.status;
    },
  };
}
