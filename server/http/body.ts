import type { IncomingMessage } from 'node:http';
import { inheritedNameProblem } from '../../shared/api/primitives.ts';
import { JsonLimitError, JsonShapeScan, parseJsonYielding, type JsonLimits } from './jsonParse.ts';
import { HttpProblem } from './problems.ts';

/**
 * What a JSON body may hold besides its size. The defaults suit the service's own bodies (a few
 * levels, hundreds of values); the realtime database passes its own (server/rtdb/routes.ts).
 */
export const DEFAULT_JSON_LIMITS: JsonLimits = { maxDepth: 32, maxValues: 100_000 };

/**
 * A body refused for one of its keys ({@link readJsonBody}): a 400 that also says where the key
 * is and why, for mounts that word their errors their own way (server/search/envelope.ts).
 */
export class BodyKeyProblem extends HttpProblem {
  /** The key's JSON Pointer (RFC 6901), the key itself its last segment. */
  readonly pointer: string;
  readonly reason: string;
  constructor(reason: string, pointer: string, headers: Record<string, string> = {}) {
    super(400, `the request body has a key that cannot be used: ${reason} (at ${pointer})`, { errors: [{ pointer, message: reason }], headers });
    this.pointer = pointer;
    this.reason = reason;
  }
}

/**
 * Reads a JSON request body within `limit` bytes. Answers 413 past the limit (checking
 * Content-Length first so a large upload is refused before it is read), 415 for a non-JSON
 * media type, 400 for malformed JSON with the parser's reason, and 413 (too many values, too
 * long a string) or 400 (too deep, a bad key) past `json`'s limits. Parsing yields to the event
 * loop every few milliseconds and stops at the first value past a limit, so no body, however
 * large, holds up other requests (server/http/jsonParse.ts).
 *
 * Every object of the value has no prototype, and a key every object inherits (`__proto__`,
 * `constructor`, `valueOf`, …), at any depth, is refused with a 400 naming it and its JSON
 * Pointer ({@link BodyKeyProblem}): no body this reads has such a name among its fields or
 * record keys, and zod copies a loose object's extra keys by assignment, which such a key turns
 * into a prototype change or, with Object.prototype frozen (server/main.ts), a throw. The
 * realtime database, whose keys are data, parses its writes itself (server/rtdb/routes.ts).
 */
export async function readJsonBody(req: IncomingMessage, limit: number, json: JsonLimits = DEFAULT_JSON_LIMITS): Promise<unknown> {
  return (await readJsonBodyWithText(req, limit, json)).value;
}

/** `readJsonBody`, also giving the body's text as sent (a cache key for answers that depend only on it). */
export async function readJsonBodyWithText(req: IncomingMessage, limit: number, json: JsonLimits = DEFAULT_JSON_LIMITS): Promise<{ text: string; value: unknown }> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpProblem(415, 'the request body must be JSON (Content-Type: application/json)');
  }
  const limits: JsonLimits = { ...json, keyProblem: (key) => inheritedNameProblem(key) ?? json.keyProblem?.(key) };
  let text: string;
  try {
    text = await readBodyText(req, limit, { scan: limits });
  } catch (error) {
    if (error instanceof JsonLimitError) throw limitProblem(error, headersAfterRefusingUnread(req));
    throw error;
  }
  if (text.trim() === '') throw new HttpProblem(400, 'the request body is empty; expected JSON', { errors: [{ pointer: '', message: 'expected a JSON value' }] });
  return { text, value: await parseBody(text, limits) };
}

/**
 * The body as UTF-8 text, at most `limit` bytes: 413 (and the connection closed, since the rest
 * of the upload is not read) when Content-Length or the bytes received say more. With `scan`,
 * the bytes are watched as they arrive (JsonShapeScan) and a body that must be past those
 * limits throws JsonLimitError without being read further (the rest is discarded unread).
 */
export async function readBodyText(req: IncomingMessage, limit: number, options: { tooLarge?: string; scan?: JsonLimits } = {}): Promise<string> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  // Answering 413 before the whole body is read leaves the connection unusable, so it is closed.
  const tooLarge = () => new HttpProblem(413, options.tooLarge ?? `the request body must be at most ${limit} bytes`, { headers: { connection: 'close' } });
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge();
  }
  const scan = options.scan ? new JsonShapeScan(options.scan) : undefined;
  // 'data' events rather than `for await`: leaving that loop early destroys the request, and a
  // client still sending then stalls until it times out instead of reading the answer. Once
  // refused, the rest flows by unread.
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    const refuse = (error: unknown) => {
      refused = true;
      chunks.length = 0;
      reject(error);
    };
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      try {
        if (size > limit) throw tooLarge();
        scan?.push(chunk);
        chunks.push(chunk);
      } catch (error) {
        refuse(error);
      }
    });
    req.once('end', () => {
      if (!refused) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.once('error', (error) => refused || refuse(error));
    req.once('close', () => refused || req.complete || refuse(new HttpProblem(400, 'the client closed the connection before the body ended')));
  });
}

/**
 * The answer's headers when a body was refused before it was all read: its rest is discarded as
 * it arrives, so a client still sending it reads the answer instead of a reset connection. A
 * declared length bounds that (the limit was checked); a body without one is not waited for.
 */
export function headersAfterRefusingUnread(req: IncomingMessage): Record<string, string> {
  return req.headers['content-length'] === undefined ? { connection: 'close' } : {};
}

/** Parses a body's text within `json`'s limits; 400 or 413 naming where it went wrong. */
export async function parseBody(text: string, json: JsonLimits): Promise<unknown> {
  try {
    return await parseJsonYielding(text, json);
  } catch (error) {
    if (error instanceof JsonLimitError) throw limitProblem(error);
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpProblem(400, `the request body is not valid JSON: ${reason}`, { errors: [{ pointer: '', message: 'not valid JSON' }] });
  }
}

/** 413 for too many values or too long a string, 400 for too deep or a bad key. */
function limitProblem(error: JsonLimitError, headers: Record<string, string> = {}): HttpProblem {
  if (error.limit === 'key') return new BodyKeyProblem(error.message, error.pointer, headers);
  const status = error.limit === 'values' || error.limit === 'string' ? 413 : 400;
  return new HttpProblem(status, `the request body is past a limit: ${error.message}${error.pointer ? ` (at ${error.pointer})` : ''}`, {
    errors: [{ pointer: error.pointer, message: error.message }],
    headers,
  });
}
