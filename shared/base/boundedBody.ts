/**
 * Reading an HTTP answer's body within a bound, with the platform's fetch `Response` (Node and
 * the browser alike). A service that sends more than any answer of its could hold (broken, or
 * hostile) is refused at the bound and its connection cut, rather than read whole into memory:
 * `response.text()`, `.json()` and `.arrayBuffer()` have no limit of their own.
 */

import { concatBytes } from './bytes.ts';

/** An answer longer than its reader allows: not read past the bound. */
export class BodyTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${formatBytes(maxBytes)}; it was not read`);
    this.name = 'BodyTooLargeError';
    this.maxBytes = maxBytes;
  }
}

/**
 * The body as text (UTF-8, a byte-order mark dropped as `text()` does), read up to `maxBytes`:
 * one that says (Content-Length) or turns out to be longer is cancelled with a
 * {@link BodyTooLargeError}. Errors of the connection itself (cut short, timed out) pass through.
 */
export async function readBoundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes);
  }
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concatBytes(chunks, bytes));
}

/**
 * The first `maxBytes` of the body as text, the rest never read; '' when there is none or the
 * connection failed (for quoting an error answer: what it said, never all of it).
 */
export async function readTextPrefix(response: Response, maxBytes: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  try {
    while (bytes < maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      bytes += value.byteLength;
    }
  } catch {
    // A body cut short says what it said so far.
  } finally {
    await reader.cancel().catch(() => {});
  }
  // A character cut at the bound decodes as U+FFFD rather than failing.
  return new TextDecoder().decode(concatBytes(chunks, bytes).subarray(0, maxBytes));
}

/** Reads and drops a body the caller has no use for (so the connection can serve the next request), cutting it off past `maxBytes`. */
export async function discardBody(response: Response, maxBytes = 64 * 1024): Promise<void> {
  await readBoundedText(response, maxBytes).catch(() => {});
}

/** `bytes` in MB (from 1 MB) or KB, rounded: how the bounds are said in messages. */
export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
