import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { mount, type Mount } from '../http/mounts.ts';
import { createRtdbRoutes, RTDB_PREFIX, type RtdbRoutesDeps } from './routes.ts';
import type { StreamStats } from './streamSlots.ts';

/** `/rtdb`, the realtime database: its rules decide before the handler runs. */
export async function createRtdbMount(deps: RtdbRoutesDeps): Promise<Mount & AsyncDisposable & { streams: StreamStats }> {
  const rtdb = await createRtdbRoutes(deps);
  return {
    ...mount({
      name: 'rtdb',
      prefix: RTDB_PREFIX,
      boundary: 'anyone for catalog/; a person, by an ID token, for users/<own uid>/; service accounts and secrets for all (the rules decide before the handler runs)',
      access: (req, url) => rtdb.access(req, url),
      handle: async (req, res, url, grant) => {
        await rtdb.handle(req, res, url, grant);
        return true;
      },
      refuse: (res, error) => rtdb.refuse(res, error),
    }),
    streams: rtdb.streams,
    // Stops following the store's changes; open streams end with their connections.
    dispose: () => rtdb.dispose(),
  };
}
