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
  /**
   * Every instance's origin when several share one database (`CONFORMANCE_INSTANCES`): the
   * client sends its requests to them in turn. `[origin]` otherwise.
   */
  origins: string[];
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
      target: { origin: url.origin, apiBase: url.origin + (pathname === '' ? API_PATH : pathname), external: true, origins: [url.origin] },
      close: async () => {},
    };
  }
  // Imported lazily so that a run against an external server never loads the service code.
  const { startService } = await import('../../server/app.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'breach-conformance-'));
  const services: { close(): Promise<void> }[] = [];
  const close = async () => {
    try {
      for (const service of services.reverse()) await service.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  try {
    // CONFORMANCE_POSTGRES_URL names a PostgreSQL server (tools/conformance.ts starts a private
    // one): each test file gets a database of its own on it.
    const databaseUrl = process.env.CONFORMANCE_POSTGRES_URL ? await createDatabase(process.env.CONFORMANCE_POSTGRES_URL) : undefined;
    const instances = Number(process.env.CONFORMANCE_INSTANCES ?? 1);
    if (instances > 1 && !databaseUrl) throw new Error('CONFORMANCE_INSTANCES > 1 needs CONFORMANCE_POSTGRES_URL: instances share one PostgreSQL database');
    const first = await startService({ port: 0, dataDir: path.join(dataDir, '1'), dev: true, logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) });
    services.push(first);
    const origins = [first.url];
    for (let index = 2; index <= instances; index++) {
      // Behind one address in production; here the first instance's origin is the shared issuer.
      const other = await startService({ port: 0, dataDir: path.join(dataDir, String(index)), dev: true, logLevel: 'silent', databaseUrl, identityOrigin: first.url });
      services.push(other);
      origins.push(other.url);
    }
    return { target: { origin: first.url, apiBase: first.apiBaseUrl, external: false, origins }, close };
  } catch (error) {
    await close();
    throw error;
  }
}

let databases = 0;

/** A fresh database on the PostgreSQL server at `serverUrl`; its URL. */
async function createDatabase(serverUrl: string): Promise<string> {
  const { default: pg } = await import('pg');
  const name = `conformance_${process.pid}_${++databases}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
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
