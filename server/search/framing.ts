import type { Socket } from 'node:net';
import { SearchCodes } from '../../shared/search/index.ts';
import { SEARCH_PREFIX } from './routes.ts';

const AMBIGUOUS = 'a request may not carry both Transfer-Encoding and Content-Length; send only one of them';

/**
 * Node's parser refuses a request that carries both `Transfer-Encoding` and `Content-Length`
 * before any handler runs (request smuggling). This `clientError` listener answers it in the
 * interface's own shape: the search envelope under `/client/v4`, problem+json elsewhere.
 * Every other parse error gets Node's plain 400, as before.
 */
export function answerClientError(error: Error & { code?: string; rawPacket?: Buffer }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const ambiguous = error.code === 'HPE_INVALID_TRANSFER_ENCODING' || error.code === 'HPE_UNEXPECTED_CONTENT_LENGTH';
  if (!ambiguous) {
    // What Node answers when no listener is installed (lib/_http_server.js socketOnError):
    // 408 for a request that outran requestTimeout/headersTimeout, 431 for oversized headers.
    const status = error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    return;
  }
  const target = /^[A-Z]+ (\S+) HTTP\//.exec(error.rawPacket?.toString('latin1') ?? '')?.[1] ?? '';
  const search = target === SEARCH_PREFIX || target.startsWith(SEARCH_PREFIX + '/');
  const body = search
    ? JSON.stringify({ result: null, success: false, errors: [{ code: SearchCodes.invalidHeaders, message: AMBIGUOUS }], messages: [] })
    : JSON.stringify({ type: 'https://breach-monitor.local/problems/400', title: 'Invalid request', status: 400, detail: AMBIGUOUS });
  const type = search ? 'application/json; charset=utf-8' : 'application/problem+json';
  socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}
