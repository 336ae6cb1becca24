import { createHash } from 'node:crypto';
import { CONTENT_SECURITY_POLICY } from '../../shared/ipc/security.ts';

/**
 * What the browser host serves without a session, besides the app's hashed code and styles (public,
 * the same for everyone): a page with no data and, inline, the
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
 * (docs/decisions/0202-browser-host-loads-app-into-page.md).
 *
 * Preload hints in its head ({@link appPreloadHints}) fetch the app's code and styles while the
 * exchange runs; nothing of the app runs before the exchange has succeeded.
 *
 * The script is inline, so the exchange starts as the page is parsed rather than one round trip
 * later; the page's Content-Security-Policy allows that one script by its SHA-256 hash (CSP
 * Level 2 hash-source), never `'unsafe-inline'` (see {@link BOOTSTRAP_CSP}).
 */

/** The tags of the built renderer's index.html that load the app: `<link>`s and `<script>`s, as written there. */
export function appLoadingTags(indexHtml: string): string {
  return (indexHtml.match(/<link\b[^>]*>|<script\b[^>]*>[\s\S]*?<\/script\s*>/gi) ?? []).join('\n');
}

/** A file of the built renderer's `assets/` folder, as index.html names it (relative to `/app/`). */
const ASSET_URL = /^\.\/assets\/[\w.-]+$/;

/**
 * What of the app the bootstrap page loads from its first moment, while it exchanges its code,
 * at the address each takes under `/app/` (the host serves `/app/assets/` without a session): a
 * module preload (fetched and compiled, not run) for each module script and module preload of
 * `appTags`, and the style sheets themselves (public styles; the page's status line is drawn in
 * the app's style). The scripts run only once the exchange has succeeded, inserted by the
 * bootstrap script, and find their modules fetched. Each keeps its tag's `crossorigin`, so the
 * browser matches the preload to the later request.
 */
export function appPreloadHints(appTags: string): string {
  const hints: string[] = [];
  for (const tag of appTags.match(/<(?:link|script)\b[^>]*>/gi) ?? []) {
    const attribute = (name: string) => new RegExp(`\\s${name}(?:\\s*=\\s*"([^"]*)")?(?=[\\s/>])`, 'i').exec(tag);
    const url = (tag.startsWith('<script') ? attribute('src') : attribute('href'))?.[1];
    if (!url || !ASSET_URL.test(url)) continue;
    const cors = attribute('crossorigin');
    const crossorigin = cors ? (cors[1] === 'use-credentials' ? ' crossorigin="use-credentials"' : ' crossorigin') : '';
    const href = `/app/${url.slice('./'.length)}`;
    const rel = tag.startsWith('<script') ? (attribute('type')?.[1] === 'module' ? 'modulepreload' : undefined) : attribute('rel')?.[1];
    if (rel === 'modulepreload') hints.push(`<link rel="modulepreload"${crossorigin} href="${href}">`);
    else if (rel === 'stylesheet') hints.push(`<link rel="stylesheet"${crossorigin} href="${href}">`);
  }
  return hints.join('\n');
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
<script>${BOOTSTRAP_JS}</script>
${appPreloadHints(appTags)}
</head>
<body>
<template id="app-tags">
${appTags}
</template>
<div id="root"><main class="boot"><p id="status" role="status">Opening Breach Monitor…</p></main></div>
</body>
</html>
`;
}

export const BOOTSTRAP_JS = `(async () => {
  // The style sheets in the head load as the page is parsed (after this script): which have ended, and how.
  const ended = new Map();
  for (const type of ['load', 'error']) document.addEventListener(type, (event) => { if (event.target.localName === 'link') ended.set(event.target, type); }, true);
  const params = new URLSearchParams(location.hash.slice(1));
  const code = params.get('code');
  params.delete('code');
  history.replaceState(null, '', location.pathname);
  const stored = sessionStorage.getItem('monitor-secret');
  // Sent first, from the head: the page's preload hints (below) and the rest of its parsing
  // follow while the host answers.
  const exchange = code || stored ? fetch('/__session', { method: 'POST', headers: code ? { 'x-monitor-code': code } : { 'x-monitor-secret': stored } }) : undefined;
  if (document.readyState === 'loading') await new Promise((resolve) => document.addEventListener('DOMContentLoaded', resolve, { once: true }));
  const status = document.getElementById('status');
  const say = (text) => { status.textContent = text; };
  if (!exchange) {
    say('This address is missing its code. Open the newest link that Breach Monitor printed.');
    return;
  }
  const response = await exchange;
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
  const applied = (link) => new Promise((resolve) => {
    const end = (type) => { if (type === 'error') failed(); resolve(); };
    if (link.sheet || ended.has(link)) return end(ended.get(link));
    link.addEventListener('load', () => end('load'));
    link.addEventListener('error', () => end('error'));
  });
  for (const tag of tags.filter((tag) => tag.localName === 'link')) {
    const link = document.importNode(tag, true);
    // Already in the head since the page was parsed (appPreloadHints): wait for it, do not load it twice.
    const present = [...document.head.querySelectorAll('link')].find((other) => other.rel === link.rel && other.href === link.href);
    if (link.rel === 'stylesheet') styles.push(applied(present ?? link));
    if (!present) document.head.append(link);
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
