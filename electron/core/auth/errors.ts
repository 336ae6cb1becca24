import { scrubTokenShapes } from './redact.ts';

export { SignInRequiredError } from '../api/AccessTokenSource.ts';

export type SignInErrorCode =
  | 'cancelled' // the person cancelled from the app
  | 'denied' // the person declined in the browser
  | 'timeout'
  | 'port-in-use'
  | 'state-mismatch'
  | 'wrong-issuer'
  | 'provider' // the provider refused or failed
  | 'network'
  | 'browser' // the system browser could not be opened
  | 'not-authorized' // POST /user answered 403
  | 'insecure' // an http:// endpoint that is not loopback
  | 'already-signed-in';

/**
 * A sign-in that did not complete. `message` is written for the person and never carries a
 * token, code or verifier; `code` is for the UI to choose what to offer next.
 */
export class SignInError extends Error {
  override readonly name = 'SignInError';
  readonly code: SignInErrorCode;

  constructor(code: SignInErrorCode, message: string) {
    super(scrubTokenShapes(message));
    this.code = code;
  }
}

export const NOT_AUTHORIZED_MESSAGE = 'This account no longer exists or is not authorized to use Breach Monitor.';

/**
 * The provider refused a refresh (`invalid_grant` and friends): the grant is over and only a
 * new sign-in helps. Transient failures are ApiErrors instead, so the caller simply retries.
 */
export class RefreshRefusedError extends Error {
  override readonly name = 'RefreshRefusedError';
  /** The OAuth error code, e.g. `invalid_grant`. */
  readonly oauthError: string;

  constructor(oauthError: string, message: string) {
    super(scrubTokenShapes(message));
    this.oauthError = oauthError;
  }
}
