import type { AddressInfo } from 'node:net';
import type { ServiceConfig } from '../config.ts';
import { createLimitedServer } from '../http/connections.ts';
import { serviceHostNames } from '../http/hostGate.ts';
import { answerClientError } from '../search/index.ts';

/** Listens before anything else is mounted: requests are answered 503 until `serve` is called. */
export async function listen(config: ServiceConfig) {
  const connections = createLimitedServer(config, answerClientError);
  const { server } = connections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // Drained once: by the running service's `close` with its grace, or with none when a failed start closes its parts.
  let drained: Promise<void> | undefined;
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  // 0.0.0.0 and :: are not names a client can send; a specific address (or the public origin) is.
  const ownOrigins = [...(isUnspecifiedHost(config.host) ? [] : [url]), ...(config.publicOrigin ? [config.publicOrigin] : [])];
  return {
    connections,
    server,
    url,
    hostNames: serviceHostNames(port, ownOrigins),
    drain: (graceMs: number) => (drained ??= connections.drain(graceMs)),
  };
}

export type Listening = Awaited<ReturnType<typeof listen>>;

function isUnspecifiedHost(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '[::]';
}
