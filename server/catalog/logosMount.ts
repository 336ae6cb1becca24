import type { AsyncDisposable } from '../../shared/base/lifecycle.ts';
import { mount, PUBLIC, type Mount } from '../http/mounts.ts';
import { HttpProblem } from '../http/problems.ts';
import { DEMO_LOGO_PREFIX, demoLogoSvg } from './demoDetails.ts';

/** The generated logos of catalog breaches (the demo details name them). */
export function createLogosMount({ logoExists }: { logoExists(id: string): Promise<boolean> }): Mount & AsyncDisposable {
  return {
    ...mount({
      name: 'logos',
      prefix: DEMO_LOGO_PREFIX,
      boundary: 'public: generated logos of catalog breaches',
      access: PUBLIC,
      handle: async (req, res, url) => {
        const { pathname } = url;
        if (!pathname.endsWith('.svg') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
        let id: string;
        try {
          id = decodeURIComponent(pathname.slice(DEMO_LOGO_PREFIX.length, -'.svg'.length));
        } catch {
          throw new HttpProblem(400, `the logo path is not valid percent-encoding: ${pathname}`);
        }
        if (!(await logoExists(id))) return false;
        const svg = demoLogoSvg(id);
        res.writeHead(200, {
          'content-type': 'image/svg+xml',
          'content-length': Buffer.byteLength(svg),
          'cache-control': 'public, max-age=86400',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        res.end(req.method === 'HEAD' ? undefined : svg);
        return true;
      },
    }),
    dispose: () => {},
  };
}
