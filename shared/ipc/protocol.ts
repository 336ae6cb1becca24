import { z } from 'zod';

/**
 * The envelope of every message between a UI and the core, whatever carries it (a MessagePort
 * in Electron, HTTP in the browser host, a direct call in tests). Channels and their argument
 * and result schemas are in `contract.ts`; push events in `events.ts`.
 */
export const RequestMessage = z.strictObject({
  type: z.literal('request'),
  id: z.union([z.int().nonnegative(), z.string().min(1).max(64)]),
  channel: z.string().min(1).max(64),
  args: z.unknown(),
});
export type RequestMessage = z.infer<typeof RequestMessage>;

export const IpcErrorCode = z.enum([
  'malformed-message', // not a request envelope at all
  'unknown-channel',
  'invalid-arguments', // arguments do not match the channel's schema
  'sign-in-required',
  'not-found',
  'conflict',
  'unavailable', // the service or network cannot be reached
  'cancelled',
  'internal',
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;

export const IpcError = z.object({
  code: IpcErrorCode,
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type IpcError = z.infer<typeof IpcError>;

export const ResponseMessage = z.discriminatedUnion('ok', [
  z.object({ type: z.literal('response'), id: RequestMessage.shape.id.nullable(), ok: z.literal(true), result: z.unknown() }),
  z.object({ type: z.literal('response'), id: RequestMessage.shape.id.nullable(), ok: z.literal(false), error: IpcError }),
]);
export type ResponseMessage = z.infer<typeof ResponseMessage>;

export const EventMessage = z.object({
  type: z.literal('event'),
  event: z.string().min(1),
  payload: z.unknown(),
});
export type EventMessage = z.infer<typeof EventMessage>;

/** An error a UI can show in words, with its code for decisions. */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  readonly code: IpcErrorCode;
  readonly issues: IpcError['issues'];
  constructor(code: IpcErrorCode, message: string, issues?: IpcError['issues']) {
    super(message);
    this.code = code;
    this.issues = issues;
  }
}

/**
 * Where a host's stream of push events stood: `<host instance>.<events sent so far>`. The browser
 * host stamps its batched answers with the mark taken before computing them, and opens each event
 * stream with a hello carrying the mark at which that stream started: equal marks mean no event
 * was sent in between, so a window holding those answers has missed nothing.
 */
export const EventMark = z.string().regex(/^[\w-]{1,32}\.\d{1,15}$/);
export type EventMark = z.infer<typeof EventMark>;

/** The most requests one batch may carry: a window's first answers, not a bulk interface. */
export const MAX_BATCH = 16;

/** `POST /api/batch` on the browser host: several request envelopes in one round trip, each answered as `/api/invoke` would. */
export const BatchRequest = z.strictObject({ requests: z.array(z.unknown()).min(1).max(MAX_BATCH) });
export type BatchRequest = z.infer<typeof BatchRequest>;

/** The answers, in the order asked, and the event mark taken before any was computed. */
export const BatchResponse = z.object({ mark: EventMark, responses: z.array(ResponseMessage) });
export type BatchResponse = z.infer<typeof BatchResponse>;

/** The event name of the browser host's first message on a stream, beside the core's event names. */
export const STREAM_HELLO_EVENT = 'hello';

/** The first message of the browser host's event stream (`event: hello`): the mark at which it started. */
export const StreamHello = z.object({ mark: EventMark });
export type StreamHello = z.infer<typeof StreamHello>;
