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
