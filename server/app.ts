import { parseServiceConfig, type ServiceConfigInput } from './config.ts';
import { createLogger } from './log.ts';
import { openMounts, SERVICE_MOUNTS } from './mounts.ts';
import { serve, type RunningService } from './parts/serve.ts';
import { ServiceParts, type ServiceOptions } from './parts/ServiceParts.ts';

export { DEV_GRAPH_KEY } from './config.ts';
export { IDENTITY_PREFIX } from './identity/mount.ts';
export type { RunningService } from './parts/serve.ts';
export type { ServiceOptions } from './parts/ServiceParts.ts';

/**
 * Starts the reference breach-alert service: API, development identity provider and, with
 * `dev`, the development surface. Listens first so the issuer can carry the real port; until
 * everything is ready, requests are answered 503 with `Retry-After` (never left unanswered).
 */
export async function startService(input: ServiceConfigInput, options: ServiceOptions = {}): Promise<RunningService> {
  const config = parseServiceConfig(input);
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  // Everything the service opens, kept as it opens and closed once in reverse order: at once
  // when the start fails part-way (no file, pool or port left behind), or by `close`.
  const parts = new ServiceParts(config, logger, options);
  try {
    return await openService(parts);
  } catch (error) {
    await parts.close().catch((cleanupError: unknown) => logger.warn({ err: cleanupError }, 'a failed start could not close everything it had opened'));
    throw error;
  }
}

/**
 * The start as a table of contents: the features' mounts (server/mounts.ts), each opening the
 * parts it stands on as it asks for them, then the router's table served on the port.
 */
async function openService(parts: ServiceParts): Promise<RunningService> {
  const mounts = await openMounts(SERVICE_MOUNTS, parts);
  return serve(mounts, parts);
}
