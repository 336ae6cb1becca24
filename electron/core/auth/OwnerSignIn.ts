import * as oidc from 'openid-client';
import { OwnerSignIn } from '../../../shared/api/localService.ts';
import { SignInError } from './errors.ts';
import { describeProviderError, type ProviderClient } from './ProviderClient.ts';
import type { SignInFlowResult } from './SignInFlow.ts';
import { tokenSetFromResponse } from './tokens.ts';

/** Scopes the owner asks for: the configured ones, less `email` (the owner account has no address). */
function ownerScopes(scopes: string): string {
  return scopes
    .split(' ')
    .filter((scope) => scope !== '' && scope !== 'email')
    .join(' ');
}

/**
 * The owner's sign-in to the person's own loopback service (docs/auth.md): the secret from the
 * service's data folder, traded at its token endpoint through the owner grant, for the same token
 * set the browser flow ends with. No browser, no password. Only where the provider's discovery
 * lists the grant, and only over loopback (the provider refuses it otherwise).
 */
export async function signInAsOwner(provider: ProviderClient, secret: string, now: () => number): Promise<SignInFlowResult> {
  const { config } = provider;
  const configuration = await provider.configuration();
  if (!(configuration.serverMetadata().grant_types_supported ?? []).includes(OwnerSignIn.grantType)) {
    throw new SignInError('provider', 'Your local breach-alert service does not sign its owner in (it was not started by Breach Monitor for you). Restart Breach Monitor, or sign in in your browser.');
  }
  let response: Awaited<ReturnType<typeof oidc.genericGrantRequest>>;
  try {
    response = await oidc.genericGrantRequest(configuration, OwnerSignIn.grantType, {
      [OwnerSignIn.secretParameter]: secret,
      scope: ownerScopes(config.scopes),
      resource: config.audience,
    });
  } catch (error) {
    if (error instanceof oidc.ResponseBodyError && error.error === 'invalid_grant') {
      throw new SignInError(
        'provider',
        'Your local breach-alert service did not recognise this computer’s owner key. Quit Breach Monitor and start it again, so the service and the app share the same key.',
      );
    }
    throw new SignInError('network', `Your local breach-alert service could not sign you in (${describeProviderError(error)}). Try again in a moment.`);
  }
  const claims = response.claims();
  if (!claims) throw new SignInError('provider', 'Your local breach-alert service did not say who signed in (no ID token).');
  return { tokens: tokenSetFromResponse(response, now()), identity: { issuer: claims.iss, subject: claims.sub, email: undefined } };
}
