import { CoreError } from '../../../shared/ipc/index.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { SettingsStore } from '../settings/SettingsStore.ts';
import { queryEmbedded } from '../graph/queryEmbedded.ts';
import type { RemoteGraphEndpoints } from '../graph/RemoteGraphEndpoints.ts';

export interface GraphHandlerDeps {
  sessions: CurrentSession;
  remotes: RemoteGraphEndpoints;
  settings: SettingsStore;
}

/** The graph pane: node queries on the embedded graph of the local breaches or on the configured remote endpoint. */
export function createGraphHandlers({ sessions, remotes, settings }: GraphHandlerDeps) {
  return {
    // Query errors (a bad expression, an unreachable endpoint) are translated at the door.
    'graph-query': async ({ endpoint, maxPages, ...request }) => {
      if (endpoint === 'embedded') return queryEmbedded(sessions.require().graph, request, { maxPages });
      const url = settings.get().graphRemoteUrl;
      if (!url) throw new CoreError('invalid-arguments', 'Add a remote graph endpoint in the graph pane first.');
      return remotes.client(url).query(request, { maxPages });
    },
    'graph-remote-get': () => remotes.view(settings.get().graphRemoteUrl),
    'graph-remote-set': async ({ url, apiKey }) => {
      settings.update({ graphRemoteUrl: url });
      if (apiKey !== undefined) await remotes.client(url).setApiKey(apiKey);
      return remotes.view(url);
    },
  } satisfies HandlerSlice;
}
