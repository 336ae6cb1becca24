import { FIREFOX_API_PREFIX } from '../../shared/api/index.ts';
import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import type { BreachAlertService } from '../api/BreachAlertService.ts';
import type { AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { mount, type Mount } from '../http/mounts.ts';
import type { Logger } from '../log.ts';
import type { FaultPlan } from './FaultPlan.ts';
import { createFirefoxRoutes } from './routes.ts';

export interface FirefoxMountDeps {
  service: BreachAlertService;
  verifyToken: AccessTokenVerifier;
  /** Armed by the development surface (`POST /__dev/faults`), taken by the next requests. */
  faults: FaultPlan;
  logger: Logger;
}

/** `/api/firefox/v1`, the newer Monitor contract over the same service (firefox/routes.ts). */
export function createFirefoxMount({ service, verifyToken, faults, logger }: FirefoxMountDeps): Mount & AsyncDisposable {
  const firefox = createFirefoxRoutes(service, verifyToken, logger.child({ component: 'firefox-v1' }), faults);
  return {
    ...mount({
      name: 'firefox-v1',
      prefix: FIREFOX_API_PREFIX,
      boundary: 'a person, by an access token of the configured issuer carrying the monitor scope',
      access: (req) => firefox.access(req),
      handle: (req, res, url, claims) => firefox.handle(req, res, url, claims),
      refuse: (res, error) => firefox.refuse(res, error),
    }),
    // Holds nothing of its own: the service and the verifier are shared with /api/v1.
    dispose: () => {},
  };
}
