// The shell of the few pages served as HTML without the renderer: the core's sign-in callback
// page (electron/core/auth/callbackPage.ts) and the development identity provider's pages
// (server/identity/pages.ts). Platform-free (Web Crypto, no Node built-in), so both hosts use
// the one shell.

export function escapeHtml(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
}

export interface PageShell {
  html: string;
  /**
   * The per-response nonce of the page's one inline style: its CSP allows `style-src
   * 'nonce-<nonce>'` and nothing else, so it can stay `default-src 'none'`.
   */
  nonce: string;
}

/**
 * A whole page: no script, no external resource, no referrer (a callback page's URL carries an
 * authorization code). `title` is escaped here; `style` and `body` are the caller's markup, with
 * every value in them escaped by the caller ({@link escapeHtml}).
 */
export function renderPageShell(page: { title: string; style: string; body: string }): PageShell {
  const nonce = randomNonce();
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)}</title>
<style nonce="${nonce}">${page.style}</style>
</head>
<body>
<main>
${page.body}
</main>
</body>
</html>
`;
  return { html, nonce };
}

/** 16 random bytes in base64: a nonce nobody can guess for one response. */
function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}
