/**
 * Scrubs secrets out of text that may reach a log, an error message or the UI. Known secrets
 * (the tokens, codes and verifiers this process holds) are replaced wherever they occur; on top
 * of that, anything shaped like a JWT or a long opaque credential is replaced too, because a
 * provider's error description or a library's message can echo a token we never registered.
 */
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
// Opaque tokens are long runs of base64url (oidc-provider: 43); words, URLs and account ids (32 hex) are shorter or punctuated.
const OPAQUE = /[A-Za-z0-9_-]{40,}/g;
const REDACTED = '[redacted]';
/**
 * Secrets remembered, newest kept: every refresh brings three, so an app running for months would
 * otherwise hold thousands and test each against every log line. Older ones are expired or
 * rotated away, and token-shaped ones are caught by their shape anyway.
 */
export const MAX_REMEMBERED_SECRETS = 64;

export class Redactor {
  /** In the order they were last given: the first is the oldest. */
  readonly #secrets = new Set<string>();

  /** Remembers a secret so every later `scrub` removes it. Short values are ignored: they would mangle ordinary text. */
  add(...secrets: (string | undefined)[]): void {
    for (const secret of secrets) {
      if (!secret || secret.length < 8) continue;
      this.#secrets.delete(secret);
      this.#secrets.add(secret);
      if (this.#secrets.size > MAX_REMEMBERED_SECRETS) this.#secrets.delete(this.#secrets.values().next().value!);
    }
  }

  /** How many secrets are remembered (at most {@link MAX_REMEMBERED_SECRETS}). */
  get size(): number {
    return this.#secrets.size;
  }

  forget(...secrets: (string | undefined)[]): void {
    for (const secret of secrets) if (secret) this.#secrets.delete(secret);
  }

  scrub(text: string): string {
    let result = text;
    for (const secret of this.#secrets) if (result.includes(secret)) result = result.replaceAll(secret, REDACTED);
    return scrubTokenShapes(result);
  }
}

export function scrubTokenShapes(text: string): string {
  return text.replace(JWT, REDACTED).replace(OPAQUE, REDACTED);
}
