import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { mount, PUBLIC, type Mount } from '../http/mounts.ts';
import type { DevIdentityProvider } from './index.ts';

export const IDENTITY_PREFIX = '/oidc';

/** `/oidc`, the development identity provider, mounted when no external issuer is configured. */
export function createIdentityMount(identity: DevIdentityProvider): Mount & AsyncDisposable {
  return {
    ...mount({
      name: 'identity',
      prefix: IDENTITY_PREFIX,
      boundary: 'public OpenID endpoints; the provider authenticates its client (PKCE), sessions (cookies) and service accounts (signed assertions) itself',
      access: PUBLIC,
      handle: async (req, res) => {
        identity.handle(req, res);
        return true;
      },
    }),
    // The provider is opened before the mounts (the verifier needs its keys) and closed by its opener.
    dispose: () => {},
  };
}
