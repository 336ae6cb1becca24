import type { ChannelInput } from '../../shared/ipc/contract.ts';
import type { FeedStatus } from '../../shared/ipc/feed.ts';
import { invoke } from '../lib/core.ts';

/** The details feed as the core sees it: address, authentication, last sync. */
export function feedStatus(): Promise<FeedStatus> {
  return invoke('feed-status', {});
}

/** Saves how the feed authenticates; credentials go to the core's keychain and never come back. */
export function configureFeed(change: ChannelInput<'feed-configure'>): Promise<FeedStatus> {
  return invoke('feed-configure', change);
}

/** Fetches the catalog's details now; a failure is reported in the returned status. */
export function syncFeed(): Promise<FeedStatus> {
  return invoke('feed-sync', {});
}
