/**
 * The local reference service (`npm run server`) and its identity provider. The core does not
 * publish its defaults (see the report on the contract), so the window knows them too.
 */
export const LOCAL_SERVICE = {
  serviceUrl: 'http://127.0.0.1:6060/api/v1',
  issuer: 'http://127.0.0.1:6060/oidc',
} as const;

export function isLocalService(serviceUrl: string | undefined): boolean {
  if (!serviceUrl) return true;
  try {
    const url = new URL(serviceUrl);
    return (url.hostname === 'localhost' || url.hostname === '127.0.0.1') && url.port === '6060';
  } catch {
    return false;
  }
}
