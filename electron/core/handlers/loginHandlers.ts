import type { HandlerSlice } from './combineHandlers.ts';
import type { Logins } from '../logins/Logins.ts';

/**
 * The logins read from password-manager exports: the view, an import (progress as events, its
 * cancel), the background Pwned Passwords check's cancel, marking findings dealt with,
 * forgetting them all, and deleting the export file imported in this run of the app.
 */
export function createLoginHandlers({ logins }: { logins: Logins }) {
  return {
    'logins-get': () => logins.view(),
    'logins-import': (input) => logins.import(input),
    'logins-import-cancel': ({ importId }) => {
      logins.cancelImport(importId);
      return {};
    },
    'logins-check-cancel': () => logins.cancelCheck(),
    'logins-resolve': ({ id, resolved }) => logins.resolve(id, resolved),
    'logins-forget': () => logins.forget(),
    'logins-delete-export': ({ path }) => logins.deleteExport(path),
  } satisfies HandlerSlice;
}
