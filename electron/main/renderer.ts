import { APP_ENTRY_URL, APP_ORIGIN } from './protocol.ts';

export interface RendererLocation {
  /** What the window loads. */
  entryUrl: string;
  /** Pages that count as the app's own (navigation guard, sender check). */
  isTrustedUrl(url: string): boolean;
}

/**
 * The bundle on app:// — or, in an unpackaged development run only, electron-vite's dev server
 * on the loopback interface (hot reload needs it; the packaged app never trusts http).
 */
export function resolveRenderer(options: { isPackaged: boolean; devServerUrl?: string | undefined }): RendererLocation {
  const dev = options.isPackaged ? undefined : loopbackOrigin(options.devServerUrl);
  const trusted = new Set([APP_ORIGIN, ...(dev ? [dev] : [])]);
  return {
    entryUrl: dev ? options.devServerUrl! : APP_ENTRY_URL,
    isTrustedUrl: (url) => {
      const origin = originOf(url);
      return origin !== undefined && trusted.has(origin);
    },
  };
}

/** `scheme://host[:port]`, computed by hand because WHATWG gives custom schemes an opaque origin. */
export function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.host === '' ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

function loopbackOrigin(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    const loopback = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
    return url.protocol === 'http:' && loopback ? `${url.protocol}//${url.host}` : undefined;
  } catch {
    return undefined;
  }
}
