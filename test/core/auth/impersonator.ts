// A man-in-the-middle "issuer" for the wrong-issuer tests: it claims to be its own issuer and
// relays everything to the real development provider, so the ID tokens that come back carry the
// real provider's issuer. It can also rewrite the `iss` authorization-response parameter, as an
// attacker who controls the redirect could, so the ID token check is the one left to catch it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Impersonator {
  /** The issuer the app is configured with: this relay's origin + `/oidc`. */
  issuer: string;
  close(): Promise<void>;
}

export interface ImpersonatorOptions {
  /** Origin of the real service, e.g. http://127.0.0.1:1234. */
  target: string;
  /** Claim to be the issuer in discovery (true) or pass the real issuer through (false). */
  claimIssuer: boolean;
  /** Rewrite `iss` in the redirect back to the app to match the claimed issuer. */
  rewriteResponseIss: boolean;
}

export async function startImpersonator(options: ImpersonatorOptions): Promise<Impersonator> {
  const server: Server = createServer((req, res) => {
    void relay(req, res).catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}/oidc`;

  async function relay(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === 'host' || name === 'content-length' || name === 'connection' || value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const upstream = await fetch(options.target + (req.url ?? '/'), {
      method: req.method ?? 'GET',
      headers,
      redirect: 'manual',
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    let body = Buffer.from(await upstream.arrayBuffer());
    const out: Record<string, string | string[]> = {};
    upstream.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding' && name !== 'transfer-encoding' && name !== 'set-cookie' && name !== 'connection' && name !== 'keep-alive') out[name] = value;
    });
    const cookies = upstream.headers.getSetCookie();
    if (cookies.length > 0) out['set-cookie'] = cookies;

    if ((req.url ?? '').startsWith('/oidc/.well-known/openid-configuration')) {
      const document = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
      const rewritten = JSON.parse(JSON.stringify(document).replaceAll(options.target, origin)) as Record<string, unknown>;
      if (!options.claimIssuer) rewritten.issuer = document.issuer;
      body = Buffer.from(JSON.stringify(rewritten));
    }
    const location = upstream.headers.get('location');
    if (location) {
      const url = new URL(location.replaceAll(options.target, origin), origin);
      if (options.rewriteResponseIss && url.searchParams.has('iss')) url.searchParams.set('iss', issuer);
      out.location = url.href;
    }
    res.writeHead(upstream.status, { ...out, 'content-length': String(body.length) });
    res.end(body);
  }

  return {
    issuer,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
