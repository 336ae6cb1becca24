// Where the conformance suite runs: an in-process reference service (default), or any server
// named by CONFORMANCE_BASE_URL that exposes the development surface (`/__dev/*`).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const API_PATH = '/api/v1';

export interface Target {
  /** Origin of the server, e.g. `http://127.0.0.1:6060`; the development surface lives here. */
  origin: string;
  /** `{base_url}` of the seed: the origin plus `/api/v1`. */
  apiBase: string;
  /** True when the suite talks to a server it did not start. */
  external: boolean;
}

export interface StartedTarget {
  target: Target;
  close(): Promise<void>;
}

/**
 * Resolves the target. `CONFORMANCE_BASE_URL` may be an origin (`http://127.0.0.1:6060`) or a
 * full API base URL (`http://127.0.0.1:6060/api/v1`); without it a fresh reference service is
 * started on an ephemeral port with a throw-away data folder.
 */
export async function startTarget(): Promise<StartedTarget> {
  const configured = process.env.CONFORMANCE_BASE_URL?.trim();
  if (configured) {
    const url = new URL(configured);
    const pathname = url.pathname.replace(/\/+$/, '');
    return {
      target: { origin: url.origin, apiBase: url.origin + (pathname === '' ? API_PATH : pathname), external: true },
      close: async () => {},
    };
  }
  // Imported lazily so that a run against an external server never loads the service code.
  const { startService } = await import('../../server/app.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'breach-conformance-'));
  try {
    const service = await startService({ port: 0, dataDir, dev: true, logLevel: 'silent' });
    return {
      target: { origin: service.url, apiBase: service.apiBaseUrl, external: false },
      async close() {
        try {
          await service.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Registers `beforeAll`/`afterAll` for the current test file and returns an accessor for the
 * target (valid inside tests and hooks that run after the file's `beforeAll`).
 */
export function useTarget(): () => Target {
  let started: StartedTarget | undefined;
  beforeAll(async () => {
    started = await startTarget();
  });
  afterAll(async () => {
    await started?.close();
    started = undefined;
  });
  return () => {
    if (!started) throw new Error('the conformance target is not started (use it inside tests or hooks)');
    return started.target;
  };
}
