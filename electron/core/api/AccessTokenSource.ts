/**
 * Where API calls get their bearer token. The sign-in module implements it with refresh ahead
 * of expiry and single-flight refresh; tests can implement it over the service's development
 * surface. Tokens never leave the core.
 */
export interface AccessTokenSource {
  /** A token valid now (refreshed first when close to expiry). Rejects with SignInRequiredError. */
  getAccessToken(): Promise<string>;
  /** Called once after a 401 for `rejected`: refresh and resolve with a new token, or reject. */
  refreshAfterUnauthorized(rejected: string): Promise<string>;
}

/** The account needs a person to sign in again; queued work is kept. */
export class SignInRequiredError extends Error {
  override readonly name = 'SignInRequiredError';
}
