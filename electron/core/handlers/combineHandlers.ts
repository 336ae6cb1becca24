import { CHANNEL_NAMES, type ChannelName } from '../../../shared/ipc/index.ts';
import type { Handler, Handlers } from './Router.ts';

/** One feature's part of the channel map (e.g. what `createSyncHandlers(deps)` returns). */
export type HandlerSlice = { [C in ChannelName]?: Handler<C> };

/**
 * Merges the features' slices into the router's map. A channel defined by two features, or by
 * none, is a wiring mistake: it fails at start-up, naming the channel, rather than one handler
 * silently winning or a channel answering "internal" the first time someone calls it.
 */
export function combineHandlers(...slices: HandlerSlice[]): Handlers {
  const merged: HandlerSlice = {};
  for (const slice of slices) {
    for (const channel of Object.keys(slice) as ChannelName[]) {
      if (Object.hasOwn(merged, channel)) throw new Error(`channel "${channel}" has two handlers`);
      (merged as Record<string, unknown>)[channel] = slice[channel];
    }
  }
  const missing = CHANNEL_NAMES.filter((channel) => !Object.hasOwn(merged, channel));
  if (missing.length > 0) throw new Error(`no handler for ${missing.map((channel) => `"${channel}"`).join(', ')}`);
  const unknown = Object.keys(merged).filter((channel) => !(CHANNEL_NAMES as string[]).includes(channel));
  if (unknown.length > 0) throw new Error(`handlers for channels the contract does not name: ${unknown.join(', ')}`);
  return merged as Handlers;
}
