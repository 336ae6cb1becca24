import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './problems.ts';

/**
 * Reads a JSON request body within `limit` bytes. Answers 413 past the limit (checking
 * Content-Length first so a large upload is refused before it is read), 415 for a non-JSON
 * media type, 400 for malformed JSON with the parser's reason.
 */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  return (await readJsonBodyWithText(req, limit)).value;
}

/** `readJsonBody`, also giving the body's text as sent (a cache key for answers that depend only on it). */
export async function readJsonBodyWithText(req: IncomingMessage, limit: number): Promise<{ text: string; value: unknown }> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new HttpProblem(415, 'the request body must be JSON (Content-Type: application/json)');
  }
  const declared = Number(req.headers['content-length'] ?? NaN);
  // Answering 413 before the whole body is read leaves the connection unusable, so it is closed.
  const tooLarge = () => new HttpProblem(413, `the request body must be at most ${limit} bytes`, { headers: { connection: 'close' } });
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new HttpProblem(400, 'the request body is empty; expected JSON', { errors: [{ pointer: '', message: 'expected a JSON value' }] });
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpProblem(400, `the request body is not valid JSON: ${reason}`, { errors: [{ pointer: '', message: 'not valid JSON' }] });
  }
}
