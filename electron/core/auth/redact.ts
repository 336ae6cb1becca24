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

export class Redactor {
  readonly #secrets = new Set<string>();

  /** Remembers a secret so every later `scrub` removes it. Short values are ignored: they would mangle ordinary text. */
  add(...secrets: (string | undefined)[]): void {
    for (const secret of secrets) if (secret && secret.length >= 8) this.#secrets.add(secret);
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
