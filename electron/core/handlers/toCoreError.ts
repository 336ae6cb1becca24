import { ZodError } from 'zod';
import { CoreError, type IpcErrorCode } from '../../../shared/ipc/index.ts';
import { classifyError, type ErrorKind } from '../api/errorKind.ts';
import { ConfigError } from '../auth/config.ts';
import { SignInError, type SignInErrorCode } from '../auth/errors.ts';
import { GraphQueryError } from '../../../engine/graph/NodeQueryEngine.ts';
import { NodeQueryError } from '../graph/NodeQueryClient.ts';
import { UnknownTargetError } from '../outbox/errors.ts';
import { FilterError } from '../../../shared/search/filter.ts';
import { RemoteSearchError } from '../search/RemoteSearchClient.ts';

const FROM_KIND: Record<ErrorKind, IpcErrorCode | undefined> = {
  offline: 'unavailable',
  timeout: 'unavailable',
  'rate-limited': 'unavailable',
  server: 'unavailable',
  'auth-needed': 'sign-in-required',
  forbidden: 'sign-in-required',
  // The service has no account for this person: nothing the app can do but point at sign-up.
  'no-account': 'unavailable',
  invalid: 'invalid-arguments',
  'not-found': 'not-found',
  cancelled: 'cancelled',
  // Our own failure (a disk write, a bug): the router answers "internal" and logs it.
  internal: undefined,
};

const FROM_SIGN_IN: Partial<Record<SignInErrorCode, IpcErrorCode>> = {
  cancelled: 'cancelled',
  network: 'unavailable',
  timeout: 'unavailable',
  'already-signed-in': 'conflict',
};

/**
 * The one translation of the core's errors into what a UI is told, applied by the router to
 * every handler's failure: a refused argument, a missing breach, an unreachable service, a
 * needed sign-in. Anything else (a full disk, a bug) is not the caller's doing: undefined,
 * which the router answers as "internal" and logs, never as "invalid arguments".
 */
export function toCoreError(error: unknown): CoreError | undefined {
  if (error instanceof CoreError) return error;
  if (error instanceof ZodError) {
    const issues = error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
    return new CoreError('invalid-arguments', issues.map((issue) => `${issue.path}: ${issue.message}`).join('; '), issues);
  }
  if (error instanceof ConfigError) return new CoreError('invalid-arguments', error.message);
  if (error instanceof UnknownTargetError) return new CoreError('not-found', error.message);
  if (error instanceof SignInError) return new CoreError(FROM_SIGN_IN[error.code] ?? 'sign-in-required', error.message);
  if (error instanceof GraphQueryError) return new CoreError('invalid-arguments', error.message, [{ path: error.field, message: error.message }]);
  if (error instanceof FilterError)
    return new CoreError(
      'invalid-arguments',
      error.message,
      error.issues.map((issue) => ({ path: issue.pointer, message: issue.message })),
    );
  // A remote instance's refusal (a bad token, a bad filter) is the person's to fix; no answer is "unavailable".
  if (error instanceof RemoteSearchError) return new CoreError(error.kind === 'auth' || error.kind === 'rejected' ? 'invalid-arguments' : 'unavailable', error.message);
  if (error instanceof NodeQueryError) return new CoreError(error.kind === 'rejected' ? 'invalid-arguments' : 'unavailable', error.message);
  const code = FROM_KIND[classifyError(error)];
  return code && error instanceof Error ? new CoreError(code, error.message) : undefined;
}
