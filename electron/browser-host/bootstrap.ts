import { createHash } from 'node:crypto';
import { CONTENT_SECURITY_POLICY } from '../../shared/ipc/security.ts';

/**
 * The only thing the browser host serves without a session: a page with no data and, inline, the
 * script that reads the one-time launch code from the URL fragment (fragments never reach a
 * server or its logs), removes it from the address bar and history at once, exchanges it for a
 * session (cookie for the app's files, token for API calls, kept in sessionStorage, which is per
 * origin, so per port) and then loads the app into this same page. A reload sends the session
 * token again instead.
 *
 * The app is not a second page: the bootstrap page carries, inert in a `<template>`, the tags of
 * the built renderer's index.html that load it (its style sheets, module preloads and scripts,
 * relative URLs as Vite writes them). After the exchange the script gives the page the app's
 * address (`/app/`, `history.replaceState`, so relative URLs resolve there and a reload loads the
 * app directly with its cookie) and inserts those tags; the app draws into the page's `#root`,
 * replacing the status line. One document instead of two saves a page load on every launch
 * (docs/decisions.md, "The bootstrap page becomes the app").
 *
 * The script is inline, so the exchange starts as the page is parsed rather than one round trip
 * later; the page's Content-Security-Policy allows that one script by its SHA-256 hash (CSP
 * Level 2 hash-source), never `'unsafe-inline'` (see {@link BOOTSTRAP_CSP}).
 */

/** The tags of the built renderer's index.html that load the app: `<link>`s and `<script>`s, as written there. */
export function appLoadingTags(indexHtml: string): string {
  return (indexHtml.match(/<link\b[^>]*>|<script\b[^>]*>[\s\S]*?<\/script\s*>/gi) ?? []).join('\n');
}

/** The bootstrap page, holding the app's loading tags (see {@link appLoadingTags}) inert until the exchange. */
export function bootstrapHtml(appTags: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Breach Monitor</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
</head>
<body>
<template id="app-tags">
${appTags}
</template>
<div id="root"><main class="boot"><p id="status" role="status">Opening Breach Monitor…</p></main></div>
<script>${BOOTSTRAP_JS}</script>
</body>
</html>
`;
}

export const BOOTSTRAP_JS = `(async () => {
  const status = document.getElementById('status');
  const say = (text) => { status.textContent = text; };
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get('code');
  params.delete('code');
  history.replaceState(null, '', location.pathname);
  const stored = sessionStorage.getItem('monitor-secret');
  if (!code && !stored) {
    say('This address is missing its code. Open the newest link that Breach Monitor printed.');
    return;
  }
  const headers = code ? { 'x-monitor-code': code } : { 'x-monitor-secret': stored };
  const response = await fetch('/__session', { method: 'POST', headers });
  if (!response.ok) {
    sessionStorage.removeItem('monitor-secret');
    say('This link was already used, has expired (links work once, for two minutes) or is from an earlier launch. Open the newest link Breach Monitor printed (press Enter in its terminal for a new one).');
    return;
  }
  const { session } = await response.json();
  sessionStorage.setItem('monitor-secret', session);
  // The app's address, where its relative URLs resolve and a reload finds it.
  const rest = params.toString();
  history.replaceState(null, '', '/app/' + (rest ? '#' + rest : ''));

  const failed = () => say('Breach Monitor’s page could not be loaded. Open the newest link it printed.');
  const tags = [...document.getElementById('app-tags').content.children];
  const scripts = tags.filter((tag) => tag.localName === 'script');
  const styles = [];
  for (const tag of tags.filter((tag) => tag.localName === 'link')) {
    const link = document.importNode(tag, true);
    if (link.rel === 'stylesheet') styles.push(new Promise((resolve) => {
      link.addEventListener('load', resolve);
      link.addEventListener('error', () => { failed(); resolve(); });
    }));
    document.head.append(link);
  }
  // Module scripts are fetched now, beside the style sheets, and run once those apply, as the
  // app's own page would run them (no first frame without its styles).
  for (const script of scripts) {
    if (script.type !== 'module' || !script.getAttribute('src')) continue;
    const preload = document.createElement('link');
    preload.rel = 'modulepreload';
    if (script.hasAttribute('crossorigin')) preload.crossOrigin = script.getAttribute('crossorigin');
    preload.href = script.getAttribute('src');
    document.head.append(preload);
  }
  await Promise.all(styles);
  for (const tag of scripts) {
    // A script parsed inside a template never runs; a new element with its attributes does.
    const script = document.createElement('script');
    for (const { name, value } of tag.attributes) script.setAttribute(name, value);
    // Inserted scripts run as soon as they are fetched unless told to keep the page's order.
    script.async = tag.hasAttribute('async');
    script.text = tag.text;
    script.addEventListener('error', failed);
    document.head.append(script);
  }
})();
`;

/**
 * The bootstrap page's policy: the app's own ({@link CONTENT_SECURITY_POLICY}, which the app then
 * runs under, this being its document) plus the bootstrap script by the hash of its exact text, so
 * no other inline script, attribute handler or injected copy with one character changed runs.
 */
export const BOOTSTRAP_CSP = CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'sha256-${createHash('sha256').update(BOOTSTRAP_JS, 'utf8').digest('base64')}'`);
if (BOOTSTRAP_CSP === CONTENT_SECURITY_POLICY) throw new Error("the app's policy has no \"script-src 'self'\" to allow the bootstrap script in");
