import { app, session, shell, type Session, type WebContents } from 'electron';

const MAX_EXTERNAL_URL_LENGTH = 2048;

/** Only plain http(s) links with a host and no credentials leave the app, for the system browser. */
export function isSafeExternalUrl(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length > MAX_EXTERNAL_URL_LENGTH) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '' && url.username === '' && url.password === '';
}

/** Opens the link in the system browser when it passes `isSafeExternalUrl`; says whether it did. */
export function openExternalSafely(raw: unknown): boolean {
  if (!isSafeExternalUrl(raw)) return false;
  // The URL was checked just above: http(s), a host, no credentials.
  shell.openExternal(raw).catch((error: unknown) => console.warn('could not open the browser', error)); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
  return true;
}

export interface GuardOptions {
  /** The renderer's own pages: the app:// bundle (and the dev server, unpackaged only). */
  isTrustedUrl(url: string): boolean;
}

/**
 * Guards every web contents the app will ever create, and the sessions they use. Runs before
 * `ready` so no web contents escapes it; it must not touch a session, which Electron refuses to
 * hand out before `ready` ("Session can only be received when app is ready").
 */
export function installSecurityGuards(options: GuardOptions): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, options));
}

/** Once ready, before any window: the default session denies permissions from the start. */
export function guardDefaultSession(options: GuardOptions): void {
  denyPermissions(session.defaultSession, options);
}

export function guardWebContents(contents: WebContents, options: GuardOptions): void {
  denyPermissions(contents.session, options);
  contents.on('will-navigate', (event) => {
    if (options.isTrustedUrl(event.url)) return;
    event.preventDefault();
    openExternalSafely(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!options.isTrustedUrl(event.url)) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openExternalSafely(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

const guardedSessions = new WeakSet<Session>();

/**
 * Writing to the clipboard (the sign-in link's Copy button) is the one thing the app's own page
 * may do; no other page gets even that.
 */
const OWN_PAGE_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** The app needs no camera, location, notifications-from-web or anything else a page may ask for. */
export function denyPermissions(target: Session, options: GuardOptions): void {
  if (guardedSessions.has(target)) return;
  guardedSessions.add(target);
  const allowed = (permission: string, url: string | undefined) => OWN_PAGE_PERMISSIONS.has(permission) && url !== undefined && options.isTrustedUrl(url);
  target.setPermissionRequestHandler((_contents, permission, callback, details) => callback(allowed(permission, details?.requestingUrl)));
  target.setPermissionCheckHandler((_contents, permission, _origin, details) => allowed(permission, details?.requestingUrl));
  target.setDevicePermissionHandler(() => false);
}
