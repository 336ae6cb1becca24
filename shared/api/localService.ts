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

/**
 * The owner's sign-in to the person's own loopback service (docs/auth.md "The owner of a loopback
 * service"): the service started with `--owner` keeps a secret in this file of its data folder
 * (0600); the app's core reads it and trades it at the token endpoint through this extension
 * grant (RFC 6749 §4.5), sending it in this parameter.
 */
export const OwnerSignIn = {
  grantType: 'urn:breach-monitor:params:oauth:grant-type:owner',
  secretParameter: 'owner_secret',
  secretFile: 'owner-secret',
  subject: 'owner',
} as const;
