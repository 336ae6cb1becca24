import { FIREFOX_API_PREFIX, FIREFOX_MIN_SYNC_MINUTES, MONITOR_SCOPE, type ApiContract } from '../../../shared/api/index.ts';
import type { Settings } from '../../../shared/ipc/index.ts';

/**
 * What the account's contract changes, in one place. The contract is chosen in settings, not
 * found by probing: the newer contract's scope must be asked for at sign-in, before any request
 * could probe; a service may serve both contracts at once (the reference service does), so an
 * answer would not say which one the person means; and a probe costs a request the newer
 * contract's guidance (poll at most hourly) would count.
 */
export function contractOf(settings: Pick<Settings, 'apiContract'>): ApiContract {
  return settings.apiContract ?? 'v1';
}

/**
 * The API base for the contract. `serviceUrl` names the service's older base (`…/api/v1`) as
 * always; the newer one lives beside it at the origin's `/api/firefox/v1` (as Mozilla serves
 * both), unless the setting already names a newer base.
 */
export function apiBaseFor(serviceUrl: string, contract: ApiContract): string {
  if (contract === 'v1') return serviceUrl;
  const url = new URL(serviceUrl);
  if (url.pathname.replace(/\/+$/, '').endsWith(FIREFOX_API_PREFIX)) return serviceUrl.replace(/\/+$/, '');
  return url.origin + FIREFOX_API_PREFIX;
}

/** The sign-in's scopes: the newer contract needs its own scope on every access token. */
export function scopesFor(scopes: string, contract: ApiContract): string {
  const list = scopes.split(/\s+/).filter(Boolean);
  if (contract === 'firefox-v1' && !list.includes(MONITOR_SCOPE)) list.push(MONITOR_SCOPE);
  return list.join(' ');
}

/** The newer contract asks to be polled at most hourly: a shorter setting is clamped. */
export function syncIntervalFor(minutes: number, contract: ApiContract): number {
  return contract === 'firefox-v1' ? Math.max(FIREFOX_MIN_SYNC_MINUTES, minutes) : minutes;
}

/** Where a person without an account at the service signs up: the setting, else the service's site. */
export function signUpUrlFor(settings: Pick<Settings, 'serviceUrl' | 'signUpUrl'>): string {
  return settings.signUpUrl ?? new URL(settings.serviceUrl).origin + '/';
}
