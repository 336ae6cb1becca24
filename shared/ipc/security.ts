/**
 * The renderer's Content-Security-Policy, the same under Electron's `app://` protocol and the
 * browser host: only the app's own files and its own origin; no inline scripts, no eval, no
 * plugins, no framing.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
