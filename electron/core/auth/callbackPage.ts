import { escapeHtml, renderPageShell } from '../../../shared/html/page.ts';

export const SIGNED_IN_MESSAGE = "You're signed in to Breach Monitor. You can close this tab and return to the app.";

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; display: grid; place-items: center; min-height: 100vh; }
  main { width: min(28rem, 90vw); padding: 2rem; }
  h1 { font-size: 1.4rem; }
`;

/**
 * The page the browser shows after the provider sends it back. No script, no external
 * resource, no referrer: its URL carried the authorization code.
 */
export function renderCallbackPage(outcome: { ok: true } | { ok: false; message: string }): { html: string; headers: Record<string, string> } {
  const title = outcome.ok ? 'Signed in' : 'Sign-in did not complete';
  const message = outcome.ok ? SIGNED_IN_MESSAGE : `${outcome.message} You can close this tab and return to the app to try again.`;
  const { html, nonce } = renderPageShell({
    title: `${title} · Breach Monitor`,
    style: STYLE,
    body: `<h1>${escapeHtml(title)}</h1>
<p role="${outcome.ok ? 'status' : 'alert'}">${escapeHtml(message)}</p>`,
  });
  return {
    html,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
    },
  };
}
