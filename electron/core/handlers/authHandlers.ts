import type { HostBridge } from '../host.ts';
import type { HandlerSlice } from './combineHandlers.ts';
import type { CurrentSession } from '../session/CurrentSession.ts';
import type { CurrentAuth } from '../auth/CurrentAuth.ts';

export interface AuthHandlerDeps {
  auth: CurrentAuth;
  sessions: CurrentSession;
  host: Pick<HostBridge, 'openExternal'>;
  /** Re-publishes the sync line and the tray. */
  publishStatus(): void;
}

/** Sign-in, cancel, sign-out and the status a UI shows. */
export function createAuthHandlers({ auth, sessions, host, publishStatus }: AuthHandlerDeps) {
  return {
    'auth-status': () => auth.view(),
    'auth-sign-in': async () => {
      // The host's opener, not Electron's shell: the main process validates the URL (http(s) only) before it calls shell.openExternal.
      await auth.signIn((url) => host.openExternal(url)); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
      return auth.view();
    },
    'auth-cancel': () => {
      auth.cancelSignIn();
      return {};
    },
    'auth-sign-out': async ({ deleteLocalData }) => {
      await auth.service.signOut({ deleteLocalData });
      await sessions.close();
      publishStatus();
      return auth.view();
    },
  } satisfies HandlerSlice;
}
