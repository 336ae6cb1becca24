import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { devAccess, mount, type Mount } from '../http/mounts.ts';
import { createDevRoutes, DEV_PREFIX, type DevSurfaceDeps } from './routes.ts';

/** `/__dev`, the development surface: `--dev` only, loopback only, never cross-site. */
export function createDevMount(deps: DevSurfaceDeps & { hostNames: ReadonlySet<string> }): Mount & AsyncDisposable {
  const dev = createDevRoutes(deps);
  return {
    ...mount({
      name: 'dev',
      prefix: DEV_PREFIX,
      boundary: 'loopback callers only, never cross-site (POST must be JSON; a foreign Origin is refused); --dev only',
      access: devAccess(deps.hostNames),
      handle: (req, res, url) => dev(req, res, url),
    }),
    dispose: () => {},
  };
}
