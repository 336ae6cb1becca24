import type { AuthLogger } from '../auth/log.ts';
import type { DetailsFeed } from './DetailsFeed.ts';

/**
 * What the details feed does after each breach sync. A sync means the network is back, so
 * preferences changed offline are written back too; then the catalog details are synced.
 * Neither failure is thrown: the breach sync already succeeded, and the next one tries again.
 */
export function syncAfterBreachSync(feed: Pick<DetailsFeed, 'sync' | 'writeBackPreferences'>, { onUpdated, logger }: { onUpdated(): void; logger: AuthLogger }): Promise<void> {
  feed.writeBackPreferences().catch((error: unknown) => logger.warn('preferences: write-back failed', { error: String(error) }));
  return feed.sync().then(
    (report) => {
      if (report.status === 'updated') onUpdated();
    },
    (error: unknown) => logger.warn('details feed: sync failed', { error: String(error) }),
  );
}
