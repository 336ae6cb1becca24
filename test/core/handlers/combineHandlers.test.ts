import { describe, expect, it } from 'vitest';
import { CHANNEL_NAMES } from '../../../shared/ipc/index.ts';
import { combineHandlers, type HandlerSlice } from '../../../electron/core/handlers/combineHandlers.ts';
import { Router } from '../../../electron/core/handlers/Router.ts';

/** A slice answering every channel but the ones named, with a marker of which slice answered. */
function sliceOf(channels: readonly string[], marker: string): HandlerSlice {
  return Object.fromEntries(channels.map((channel) => [channel, () => ({ marker })])) as unknown as HandlerSlice;
}

describe('combineHandlers', () => {
  it('merges the features’ slices into one map the router serves', async () => {
    const half = Math.floor(CHANNEL_NAMES.length / 2);
    const handlers = combineHandlers(sliceOf(CHANNEL_NAMES.slice(0, half), 'first'), sliceOf(CHANNEL_NAMES.slice(half), 'second'));
    expect(Object.keys(handlers).sort()).toEqual([...CHANNEL_NAMES].sort());
    const router = new Router(handlers);
    expect(await router.invoke(CHANNEL_NAMES[0]!, {})).toEqual({ marker: 'first' });
    expect(await router.invoke('settings-get', {})).toEqual({ marker: 'second' });
  });

  it('refuses a channel defined by two features, naming it', () => {
    expect(() => combineHandlers(sliceOf(CHANNEL_NAMES, 'all'), sliceOf(['sync-now'], 'again'))).toThrow('channel "sync-now" has two handlers');
  });

  it('refuses a map that leaves channels without a handler, naming them', () => {
    expect(() =>
      combineHandlers(
        sliceOf(
          CHANNEL_NAMES.filter((name) => name !== 'sync-status' && name !== 'auth-cancel'),
          'most',
        ),
      ),
    ).toThrow(/no handler for "auth-cancel", "sync-status"/);
  });

  it('refuses a handler for a channel the contract does not name', () => {
    expect(() => combineHandlers(sliceOf(CHANNEL_NAMES, 'all'), sliceOf(['no-such-channel'], 'stray'))).toThrow(/no-such-channel/);
  });
});
