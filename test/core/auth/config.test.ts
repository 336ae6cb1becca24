import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadClientConfig, parseClientConfig } from '../../../electron/core/auth/config.ts';
import { tempDir } from './harness.ts';

const dir = tempDir('bm-config');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const target = path.join(dir, name);
  writeFileSync(target, typeof content === 'string' ? content : JSON.stringify(content));
  return target;
}

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('sign-in configuration', () => {
  it('defaults to the local reference service', () => {
    expect(loadClientConfig({ env: {} })).toEqual({
      issuer: 'http://127.0.0.1:6060/oidc',
      clientId: 'breach-monitor-desktop',
      audience: 'urn:breach-monitor:api',
      scopes: 'openid email offline_access',
      redirect: { mode: 'loopback-any-port', path: '/callback' },
      apiBaseUrl: 'http://127.0.0.1:6060/api/v1',
      apiContract: 'v1',
      signInTimeoutSeconds: 300,
      authorizationParams: {},
    });
  });

  it('reads the file, then lets BREACH_MONITOR_* variables override it', () => {
    const configFile = file('config.json', {
      issuer: 'https://accounts.example.com/',
      clientId: 'desktop-app',
      redirect: { mode: 'fixed', port: 53682, path: '/oauth/callback' },
      authorizationParams: { access_type: 'offline' },
    });
    const config = loadClientConfig({
      file: configFile,
      env: { BREACH_MONITOR_API_BASE_URL: 'https://api.example.com/api/v1', BREACH_MONITOR_SCOPES: '  openid   email ', BREACH_MONITOR_REDIRECT_PORT: '8123' },
    });
    expect(config).toMatchObject({
      issuer: 'https://accounts.example.com',
      clientId: 'desktop-app',
      scopes: 'openid email',
      apiBaseUrl: 'https://api.example.com/api/v1',
      redirect: { mode: 'fixed', port: 8123, path: '/oauth/callback' },
      authorizationParams: { access_type: 'offline' },
    });
  });

  it('BREACH_MONITOR_CONFIG names the file; a missing file means defaults', () => {
    const configFile = file('other.json', { clientId: 'from-env-file' });
    expect(loadClientConfig({ file: '/nonexistent.json', env: { BREACH_MONITOR_CONFIG: configFile } }).clientId).toBe('from-env-file');
    expect(loadClientConfig({ file: path.join(dir, 'absent.json'), env: {} }).clientId).toBe('breach-monitor-desktop');
  });

  it('names the environment variable behind a bad value', () => {
    expect(errorOf(() => loadClientConfig({ env: { BREACH_MONITOR_REDIRECT_PORT: '70000' } }))).toContain('redirect.port (from BREACH_MONITOR_REDIRECT_PORT): must be a whole number from 1 to 65535');
    expect(errorOf(() => loadClientConfig({ env: { BREACH_MONITOR_REDIRECT_PORT: 'eighty' } }))).toContain('redirect.port (from BREACH_MONITOR_REDIRECT_PORT)');
    expect(errorOf(() => loadClientConfig({ env: { BREACH_MONITOR_ISSUER: 'not a url' } }))).toContain('issuer (from BREACH_MONITOR_ISSUER): must be an absolute URL');
  });

  it('names the file and key behind a bad value', () => {
    const configFile = file('bad.json', { scopes: 'email profile', redirect: { mode: 'sometimes' }, colour: 'blue' });
    const message = errorOf(() => loadClientConfig({ file: configFile, env: {} }));
    expect(message).toContain(`scopes (in ${configFile}): must include "openid"`);
    expect(message).toContain(`redirect.mode (in ${configFile}): mode must be "loopback-any-port" or "fixed"`);
    expect(message).toContain(`colour (in ${configFile}): is not a setting`);
  });

  it('refuses plain http anywhere but loopback', () => {
    expect(errorOf(() => parseClientConfig({ issuer: 'http://accounts.example.com' }))).toContain('issuer: must use https://');
    expect(errorOf(() => parseClientConfig({ apiBaseUrl: 'http://10.0.0.5/api/v1' }))).toContain('apiBaseUrl: must use https://');
    expect(parseClientConfig({ issuer: 'http://localhost:9000/oidc', apiBaseUrl: 'http://[::1]:6060/api/v1' }).issuer).toBe('http://localhost:9000/oidc');
  });

  it('refuses other bad values by key', () => {
    expect(errorOf(() => parseClientConfig({ clientId: '' }))).toContain('clientId: must be a non-empty string');
    expect(errorOf(() => parseClientConfig({ redirect: { mode: 'fixed', path: '/cb' } }))).toContain('redirect.port: must be a whole number from 1 to 65535');
    expect(errorOf(() => parseClientConfig({ redirect: { mode: 'fixed', port: 8000, path: 'callback' } }))).toContain('redirect.path: must be a path such as /callback');
    expect(errorOf(() => parseClientConfig({ authorizationParams: { state: 'x' } }))).toContain('authorizationParams: may not set');
    expect(errorOf(() => parseClientConfig({ signInTimeoutSeconds: 1 }))).toContain('signInTimeoutSeconds: must be at least 10');
  });

  it('reports a file that is not JSON', () => {
    const configFile = file('broken.json', '{ "issuer": ');
    expect(errorOf(() => loadClientConfig({ file: configFile, env: {} }))).toContain(`the sign-in configuration ${configFile} is not valid JSON`);
  });
});
