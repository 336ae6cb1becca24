import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import type { AccessTokenVerifier } from '../auth/AccessTokenVerifier.ts';
import { mount, type Mount } from '../http/mounts.ts';
import type { Logger } from '../log.ts';
import type { BreachAlertService } from './BreachAlertService.ts';
import type { PersonEmails } from './PersonEmails.ts';
import { API_PREFIX, createApiRoutes } from './routes.ts';

export interface ApiMountDeps {
  service: BreachAlertService;
  verifyToken: AccessTokenVerifier;
  emails: PersonEmails;
  /** The details feed's version, sent with the catalog (api/routes.ts). */
  catalogVersion: () => string;
  logger: Logger;
}

/** `/api/v1`, the breach-alert API the desktop app syncs with (CONTRACT.md). */
export function createApiMount({ service, verifyToken, emails, catalogVersion, logger }: ApiMountDeps): Mount & AsyncDisposable {
  const api = createApiRoutes(service, verifyToken, { logger, emails, catalogVersion });
  return {
    ...mount({
      name: 'api-v1',
      prefix: API_PREFIX,
      boundary: 'a person, by an access token of the configured issuer (verified before any route runs)',
      access: (req) => api.access(req),
      handle: (req, res, url, caller) => api.handle(req, res, url, caller),
    }),
    // Its response cache lives in memory and goes with it.
    dispose: () => {},
  };
}
