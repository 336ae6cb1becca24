import type { AuthLogger } from '../auth/log.ts';
import type { DetailsFeed } from './DetailsFeed.ts';

/**
 * What the details feed does after each breach sync. A sync means the network is back, so
 * preferences changed offline are written back too; then the catalog details are synced, unless
 * the sync's list named the version of the service's feed this copy was read at
 * (`catalogVersion`: DetailsFeed.syncUnlessRead). Neither failure is thrown: the breach sync
 * already succeeded, and the next one tries again.
 */
export function syncAfterBreachSync(
  feed: Pick<DetailsFeed, 'syncUnlessRead' | 'writeBackPreferences'>,
  { catalogVersion, onUpdated, logger }: { catalogVersion?: string | undefined; onUpdated(): void; logger: AuthLogger },
): Promise<void> {
  feed.writeBackPreferences().catch((error: unknown) => logger.warn('preferences: write-back failed', { error: String(error) }));
  return feed.syncUnlessRead(catalogVersion).then(
    (report) => {
      if (report?.status === 'updated') onUpdated();
    },
    (error: unknown) => logger.warn('details feed: sync failed', { error: String(error) }),
  );
}
