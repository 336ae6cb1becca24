// Reading answers within a bound (shared/base/boundedBody.ts), over real HTTP on loopback: what a
// server sends is counted, so an answer refused at the bound can be seen to have been cut off, and
// the app's and the service's clients turn the refusal into their own errors, in words.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../electron/core/api/ApiError.ts';
import { BreachAlertClient } from '../../electron/core/api/BreachAlertClient.ts';
import { BodyTooLargeError, discardBody, readBoundedText, readTextPrefix } from '../../shared/base/boundedBody.ts';

let server: Server;
let base: string;
const sent = { bytes: 0 };

/** Sends `total` bytes of JSON whitespace in 16 KB writes, as long as the reader takes them. */
function pump(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  sent.bytes = 0;
  const more = () => {
    while (!res.destroyed && sent.bytes < total) {
      sent.bytes += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    res.end();
  };
  res.on('error', () => {});
  more();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/small') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('\uFEFF{"ok": "héllo"}');
    } else if (url.pathname === '/stream') {
      res.writeHead(200, { 'content-type': 'application/json' });
      pump(res, Number(url.searchParams.get('bytes')));
    } else if (url.pathname === '/api/v1/user/breaches') {
      // Says it is 100 MB: refused from the header, before a byte of the body.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
      res.end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('readBoundedText', () => {
  it('reads an answer within the bound as text, dropping a byte-order mark as text() does', async () => {
    expect(await readBoundedText(await fetch(`${base}/small`), 1024)).toBe('{"ok": "héllo"}');
  });

  it('refuses an answer past the bound, cutting it off rather than reading it to its end', async () => {
    const error = await readBoundedText(await fetch(`${base}/stream?bytes=${64 * 1024 * 1024}`), 256 * 1024).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as Error).message).toBe('the answer is larger than 256 KB; it was not read');
    await expect.poll(() => sent.bytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('reads an answer of exactly the bound', async () => {
    expect((await readBoundedText(await fetch(`${base}/stream?bytes=${64 * 1024}`), 64 * 1024)).length).toBe(64 * 1024);
  });
});

describe('readTextPrefix and discardBody', () => {
  it('quotes only the first bytes of an answer, and drops one without reading past the bound', async () => {
    // The byte-order mark counts among the bytes, and is dropped from the text.
    expect(await readTextPrefix(await fetch(`${base}/small`), 10)).toBe('{"ok": ');
    expect((await readTextPrefix(await fetch(`${base}/stream?bytes=${8 * 1024 * 1024}`), 100)).length).toBe(100);
    await discardBody(await fetch(`${base}/stream?bytes=${64 * 1024 * 1024}`));
    await expect.poll(() => sent.bytes).toBeLessThan(16 * 1024 * 1024);
  });
});

describe("the app's breach-alert client", () => {
  it('refuses a breach list larger than any the service should send, in words, before reading it', async () => {
    const client = new BreachAlertClient({ baseUrl: `${base}/api/v1`, tokens: { getAccessToken: async () => 'token', refreshAfterUnauthorized: async () => 'token' }, timeoutMs: 5_000 });
    const error = await client.listBreaches({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'protocol', message: expect.stringContaining("the service's answer is larger than any it should send (the answer is larger than 64 MB; it was not read)") });
  });
});
