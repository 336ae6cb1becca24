import type { Settings } from '../../../shared/ipc/index.ts';
import { contractOf, scopesFor } from '../settings/contract.ts';
import { loadClientConfig, parseClientConfig, type ClientConfig, type ClientConfigInput } from './config.ts';

/** The sign-in configuration before the person's settings: the given one over the defaults and `BREACH_MONITOR_*`, else the environment's. */
export function baseClientConfig(options: { config?: ClientConfigInput; env?: Record<string, string | undefined> }): ClientConfig {
  return options.config ? parseClientConfig({ ...loadClientConfig({ env: options.env ?? {} }), ...options.config }) : loadClientConfig({ env: options.env ?? process.env });
}

/** The configuration sign-in uses: the base, pointed at the person's service, issuer and contract (with the scopes that contract needs). */
export function clientConfigFor(base: ClientConfig, settings: Settings, serviceUrl = settings.serviceUrl, issuer = settings.issuer): ClientConfig {
  const contract = contractOf(settings);
  return parseClientConfig({ ...base, apiBaseUrl: serviceUrl, issuer, apiContract: contract, scopes: scopesFor(base.scopes, contract) });
}
