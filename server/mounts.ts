import { createRemoteJWKSet } from 'jose';
import type { AsyncDisposable } from '../shared/base/lifecycle.ts';
import { createApiMount } from './api/mount.ts';
import { createLogosMount } from './catalog/logosMount.ts';
import { demoDetailsFor } from './catalog/source.ts';
import { graphKeyOf } from './config.ts';
import { createDevMount } from './dev/mount.ts';
import { createFirefoxMount } from './firefox/mount.ts';
import { createGraphMount } from './graph/mount.ts';
import type { Mount } from './http/mounts.ts';
import { DESKTOP_CLIENT_ID } from './identity/index.ts';
import { createIdentityMount } from './identity/mount.ts';
import { createOpenApiMount, createRootMount } from './openapi/mount.ts';
import type { ServiceParts } from './parts/ServiceParts.ts';
import { changedDetailIds, detailsPathOf } from './rtdb/detailsFeed.ts';
import { createRtdbMount } from './rtdb/mount.ts';
import { createSearchMount } from './search/mount.ts';

/**
 * One feature mounted over the parts it asks for; `undefined` where this configuration leaves it
 * out, so its paths are 404 like any other unknown path.
 */
export type ServiceMount = (parts: ServiceParts) => Promise<(Mount & AsyncDisposable) | undefined>;

/**
 * The service's mounts, in the order the router tries them. Each names who it trusts
 * (docs/security.md has a row per mount); the router runs each one's access decision before its
 * handler.
 */
export const SERVICE_MOUNTS: readonly ServiceMount[] = [
  async (parts) => createFirefoxMount({ service: (await parts.breachAlerts()).service, verifyToken: await parts.verifyToken(), faults: await parts.firefoxFaults(), logger: parts.logger }),
  async (parts) => {
    const { service, emails } = await parts.breachAlerts();
    return createApiMount({ service, emails, verifyToken: await parts.verifyToken(), catalogVersion: (await parts.catalogVersion()).current, logger: parts.logger });
  },
  async (parts) => {
    const { details } = await parts.detailsFeed();
    // A change of the details feed alone (a title, a description) moves what search finds.
    return createSearchMount({ search: await parts.search(), logger: parts.logger, onDetailsChanged: (listener) => details.onDidChange((paths) => listener(changedDetailIds(paths))) });
  },
  async (parts) => {
    const { rtdb, breaches } = await parts.storage();
    const { identity, issuer, jwksUrl } = await parts.signIn();
    return createRtdbMount({
      store: rtdb,
      logger: parts.logger.child({ component: 'rtdb' }),
      // ID tokens of the sign-in provider for its desktop client act as that person.
      idTokens: { issuer, audience: DESKTOP_CLIENT_ID, keys: createRemoteJWKSet(new URL(jwksUrl)) },
      isAccountActive: async (sub) => (await breaches.getAccount(sub))?.deleted !== true,
      serviceAccounts: identity?.serviceAccounts,
      findLiveSecret: (secret) => rtdb.findLiveSecret(secret),
      // Revocations reach ID tokens of this service's own provider (an external one keeps its own).
      ...(identity ? { isGrantLive: identity.isGrantLive } : {}),
      streams: parts.config,
      slots: await parts.rtdbStreams(),
    });
  },
  async (parts) => {
    const { identity } = await parts.signIn();
    return identity ? createIdentityMount(identity) : undefined;
  },
  async (parts) => {
    const { breaches: store, catalogLog } = await parts.storage();
    const apiKey = graphKeyOf(parts.config);
    if (!apiKey) parts.logger.warn('graph endpoint /v2/node is disabled (401 to every request): no --graph-key or GRAPH_API_KEY');
    return createGraphMount({ store, catalogLog, apiKey });
  },
  async (parts) => {
    const { identity } = await parts.signIn();
    if (!parts.config.dev || !identity) return undefined;
    const { breaches: store, rtdb } = await parts.storage();
    return createDevMount({
      hostNames: (await parts.listening()).hostNames,
      store,
      mintAccessToken: (o) => identity.mintAccessToken(o),
      apiTokens: { store: (await parts.search()).tokens, accountId: parts.config.accountId },
      mintIdToken: (o) => identity.mintIdToken(o),
      createServiceAccount: (scopes) => identity.serviceAccounts!.create(scopes),
      secrets: rtdb,
      faults: { 'firefox-v1': await parts.firefoxFaults() },
      putDetails: (breaches) => {
        const generated = demoDetailsFor(breaches);
        return rtdb.transaction((tx) => tx.write(breaches.map((breach) => ({ path: detailsPathOf(breach.id), value: generated[breach.id]! }))));
      },
    });
  },
  async (parts) => createRootMount({ issuer: (await parts.signIn()).issuer }),
  async (parts) => {
    const { breaches: store } = await parts.storage();
    // A logo names a breach of the catalog, or one the catalog's load left out.
    return createLogosMount({ logoExists: async (id) => (await store.getBreach(id)) !== undefined || (await parts.catalogReport()).skipped.some((s) => s.id === id) });
  },
  async () => createOpenApiMount(),
];

/** Opens `list` over `parts`, each mount kept with them to close with the service; the router's table. */
export async function openMounts(list: readonly ServiceMount[], parts: ServiceParts): Promise<Mount[]> {
  const mounts: Mount[] = [];
  for (const open of list) {
    const made = await open(parts);
    if (made) mounts.push(parts.keep(made));
  }
  return mounts;
}
