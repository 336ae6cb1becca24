import { BodyTooLargeError, readBoundedText, readTextPrefix } from '../../../shared/base/boundedBody.ts';
import { ApiError } from './ApiError.ts';

/**
 * The most of one answer the app reads from a service it syncs with: far beyond any list the
 * contracts let it send (a person's breaches at 20 addresses, the whole details feed are a few MB),
 * so only a broken or hostile service reaches it, and the app then refuses the answer rather than
 * hold it whole in memory.
 */
export const MAX_SERVICE_ANSWER_BYTES = 64 * 1024 * 1024;

/** What an error answer is quoted from: the first 64 KB (a problem document, a sentence), never all of it. */
const ERROR_EXCERPT_BYTES = 64 * 1024;

/** A 2xx answer's body as text, within {@link MAX_SERVICE_ANSWER_BYTES}; past it, a protocol error in words. */
export async function answerText(response: Response, maxBytes = MAX_SERVICE_ANSWER_BYTES): Promise<string> {
  try {
    return await readBoundedText(response, maxBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ApiError('protocol', `the service's answer is larger than any it should send (${error.message})`, { status: response.status });
    throw error;
  }
}

/** An error answer's first words, to quote ('' when it has none or the connection failed). */
export function errorText(response: Response): Promise<string> {
  return readTextPrefix(response, ERROR_EXCERPT_BYTES);
}
