// What the conformance suite cannot provoke from outside: a failure of the service itself is
// answered `500 internal-error` in the newer contract's shape (and logged), not as a problem+json.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIREFOX_API_PREFIX, FirefoxError, MONITOR_SCOPE } from '../../shared/api/index.ts';
import { startService, type RunningService } from '../../server/app.ts';

let service: RunningService;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'breach-firefox-'));
  service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
});

afterAll(async () => {
  await service?.close().catch(() => {});
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers 500 internal-error with {code, message} when its store fails', async () => {
  const tokenAnswer = await fetch(service.url + '/__dev/token', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ sub: 'broken-store', email: 'broken@example.com', scope: `openid ${MONITOR_SCOPE}` }),
  });
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  expect((await fetch(service.apiBaseUrl + '/user', { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status).toBe(201);
  // A real failure: the SQLite database is closed under the running service.
  service.store.close();
  const response = await fetch(service.url + FIREFOX_API_PREFIX + '/user/breaches', { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(500);
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  expect(FirefoxError.parse(await response.json()).code).toBe('internal-error');
});
