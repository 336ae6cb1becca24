import type { AccessTokenSource } from '../../../electron/core/api/AccessTokenSource.ts';

/**
 * The real token path at the HTTP level: JWTs minted by the reference service's identity
 * provider (`POST /__dev/token`), verified by its API like any other. Counts refreshes so
 * tests can see the 401 path taken.
 */
export class DevTokenSource implements AccessTokenSource {
  readonly #origin: string;
  readonly #sub: string;
  readonly #email: string | undefined;
  readonly #scope: string | undefined;
  #token: string | undefined;
  refreshes = 0;

  /** `scope`: space-separated, instead of the provider's default (the newer contract needs its own). */
  constructor(origin: string, sub: string, email?: string, scope?: string) {
    this.#origin = origin;
    this.#sub = sub;
    this.#email = email;
    this.#scope = scope;
  }

  async getAccessToken(): Promise<string> {
    this.#token ??= await this.#mint();
    return this.#token;
  }

  async refreshAfterUnauthorized(rejected: string): Promise<string> {
    this.refreshes++;
    if (this.#token === rejected || this.#token === undefined) this.#token = await this.#mint();
    return this.#token;
  }

  async #mint(): Promise<string> {
    const response = await fetch(`${this.#origin}/__dev/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sub: this.#sub, ...(this.#email ? { email: this.#email } : {}), ...(this.#scope ? { scope: this.#scope } : {}), expiresIn: 3600 }),
    });
    if (!response.ok) throw new Error(`POST /__dev/token answered ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }
}
