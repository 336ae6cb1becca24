// The reference service in this process with its development surface, for one test file:
// started in `beforeAll` on a fresh data folder, stopped (and the folder removed) in `afterAll`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startService, type RunningService } from '../../server/app.ts';
import type { ServiceConfigInput } from '../../server/config.ts';

export interface DevServiceForTests {
  /** The running service, once `beforeAll` ran. */
  readonly service: RunningService;
}

/** Registers the file's service; `options` are added to `{port: 0, dev: true, logLevel: 'silent'}`. */
export function useDevService(options: Omit<ServiceConfigInput, 'dataDir'> = {}): DevServiceForTests {
  let service: RunningService | undefined;
  let dataDir: string | undefined;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'svc-test-'));
    service = await startService({ port: 0, dev: true, logLevel: 'silent', ...options, dataDir });
  });
  afterAll(async () => {
    await service?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    get service() {
      if (!service) throw new Error('the service is not started yet: read it inside a test or a hook after useDevService');
      return service;
    },
  };
}

/** An ID token for `sub` from the development surface (`POST /__dev/id-token`), as the realtime database takes it. */
export async function devIdToken(origin: string, sub: string, claims: { email?: string } = {}): Promise<string> {
  const response = await fetch(`${origin}/__dev/id-token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sub, ...claims }) });
  if (!response.ok) throw new Error(`POST /__dev/id-token answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id_token: string }).id_token;
}
