/**
 * The local reference service (`npm run server`, `npm start`) and its identity provider: the
 * app's default service, the window's "local service" choice and the server's default port,
 * defined once.
 */
export const LOCAL_SERVICE_PORT = 6060;
const origin = `http://127.0.0.1:${LOCAL_SERVICE_PORT}`;

export const LOCAL_SERVICE = {
  serviceUrl: `${origin}/api/v1`,
  issuer: `${origin}/oidc`,
} as const;
