/** Claims the API relies on, from a verified access token. */
export interface AccessTokenClaims {
  sub: string;
  email?: string;
  /** The provider vouches that `email` belongs to the subject (`email_verified: true`). */
  emailVerified?: boolean;
  /** `exp`, in seconds since the epoch: the claims must not be relied on from then on. */
  expiresAt: number;
  scope?: string;
  clientId?: string;
}

/** Thrown for any token the API must answer 401 to; `description` goes into `WWW-Authenticate`. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  readonly description: string;
  constructor(description: string, options?: { cause?: unknown }) {
    super(description, options);
    this.description = description;
  }
}

export interface AccessTokenVerifier {
  /** Resolves with the claims, or rejects with InvalidTokenError. */
  verify(token: string): Promise<AccessTokenClaims>;
}
