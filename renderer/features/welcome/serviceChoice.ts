import { LOCAL_SERVICE, LOCAL_SERVICE_PORT } from '../../../shared/api/localService.ts';

/** The local reference service (`npm run server`) and its identity provider, as the core's defaults name them. */
export { LOCAL_SERVICE };

export function isLocalService(serviceUrl: string | undefined): boolean {
  if (!serviceUrl) return true;
  try {
    const url = new URL(serviceUrl);
    return (url.hostname === 'localhost' || url.hostname === '127.0.0.1') && url.port === String(LOCAL_SERVICE_PORT);
  } catch {
    return false;
  }
}
