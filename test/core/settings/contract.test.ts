// What the account's contract changes: API base, sign-in scopes, the hourly floor and the sign-up link.
import { describe, expect, it } from 'vitest';
import { MONITOR_SCOPE } from '../../../shared/api/index.ts';
import { apiBaseFor, contractOf, scopesFor, signUpUrlFor, syncIntervalFor } from '../../../electron/core/settings/contract.ts';

describe('contract settings', () => {
  it('defaults to the older contract', () => {
    expect(contractOf({})).toBe('v1');
    expect(contractOf({ apiContract: 'firefox-v1' })).toBe('firefox-v1');
  });

  it('puts the newer contract at the same origin’s /api/firefox/v1', () => {
    expect(apiBaseFor('https://monitor.example/api/v1', 'v1')).toBe('https://monitor.example/api/v1');
    expect(apiBaseFor('https://monitor.example/api/v1', 'firefox-v1')).toBe('https://monitor.example/api/firefox/v1');
    expect(apiBaseFor('http://127.0.0.1:6060/api/v1/', 'firefox-v1')).toBe('http://127.0.0.1:6060/api/firefox/v1');
    expect(apiBaseFor('https://monitor.example/api/firefox/v1/', 'firefox-v1')).toBe('https://monitor.example/api/firefox/v1');
  });

  it('asks for the Monitor scope at sign-in under the newer contract only, once', () => {
    expect(scopesFor('openid email offline_access', 'v1')).toBe('openid email offline_access');
    expect(scopesFor('openid email offline_access', 'firefox-v1')).toBe(`openid email offline_access ${MONITOR_SCOPE}`);
    expect(scopesFor(`openid  ${MONITOR_SCOPE}`, 'firefox-v1')).toBe(`openid ${MONITOR_SCOPE}`);
  });

  it('clamps the sync interval to at least 60 minutes under the newer contract', () => {
    expect(syncIntervalFor(5, 'firefox-v1')).toBe(60);
    expect(syncIntervalFor(59, 'firefox-v1')).toBe(60);
    expect(syncIntervalFor(240, 'firefox-v1')).toBe(240);
    expect(syncIntervalFor(5, 'v1')).toBe(5);
  });

  it('sends people without an account to the setting, else the service’s site', () => {
    expect(signUpUrlFor({ serviceUrl: 'https://monitor.example/api/v1' })).toBe('https://monitor.example/');
    expect(signUpUrlFor({ serviceUrl: 'https://monitor.example/api/v1', signUpUrl: 'https://monitor.example/signup' })).toBe('https://monitor.example/signup');
  });
});
