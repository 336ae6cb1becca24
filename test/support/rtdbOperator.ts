// The operator's credential for the realtime database in tests and benches: a service account of
// the development surface with the database scopes. Its writes are not held to the 1 MB a person's
// own node may hold (server/rtdb/personQuota.ts), so tests of what streams are sent can write more.
import { DATABASE_SCOPES, fetchServiceAccountToken, ServiceAccountKey } from '../../electron/core/feed/serviceAccountToken.ts';

/** `Authorization` of a new service account of the service at `origin` (started with `--dev`). */
export async function operatorHeaders(origin: string): Promise<{ authorization: string }> {
  const response = await fetch(`${origin}/__dev/service-accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ scopes: [...DATABASE_SCOPES] }) });
  if (!response.ok) throw new Error(`POST /__dev/service-accounts: ${response.status}`);
  const key = ServiceAccountKey.parse(await response.json());
  return { authorization: `Bearer ${(await fetchServiceAccountToken(key)).accessToken}` };
}
