import type { z } from 'zod';
import { channels, CoreError, isChannelName, RequestMessage, type ChannelArgs, type ChannelName, type ChannelResult, type IpcError, type ResponseMessage } from '../../../shared/ipc/index.ts';
import { toCoreError } from './toCoreError.ts';

export type Handler<C extends ChannelName> = (args: ChannelArgs<C>) => Promise<ChannelResult<C>> | ChannelResult<C>;
export type Handlers = { [C in ChannelName]: Handler<C> };

export interface RouterOptions {
  /** Check results against the output schemas too (tests and development). */
  validateResults?: boolean;
  onInternalError?: (channel: string, error: unknown) => void;
}

/**
 * The core's door: every message is checked against the envelope and the channel's schema
 * before a handler runs, and every failure becomes an answer — a malformed message never
 * throws out of `dispatch`, so one bad sender cannot stop the core.
 */
export class Router {
  readonly #handlers: Handlers;
  readonly #options: RouterOptions;

  constructor(handlers: Handlers, options: RouterOptions = {}) {
    this.#handlers = handlers;
    this.#options = options;
  }

  async dispatch(raw: unknown): Promise<ResponseMessage> {
    const envelope = RequestMessage.safeParse(raw);
    if (!envelope.success) {
      const id = typeof raw === 'object' && raw !== null && 'id' in raw && (typeof raw.id === 'number' || typeof raw.id === 'string') ? raw.id : null;
      return failure(id, { code: 'malformed-message', message: 'not a request: expected {type: "request", id, channel, args}', issues: issuesOf(envelope.error) });
    }
    const { id, channel, args } = envelope.data;
    if (!isChannelName(channel)) return failure(id, { code: 'unknown-channel', message: `no channel named "${channel}"` });
    try {
      return { type: 'response', id, ok: true, result: await this.invoke(channel, args) };
    } catch (thrown) {
      const error = toCoreError(thrown);
      if (error) return failure(id, { code: error.code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) });
      this.#options.onInternalError?.(channel, thrown);
      return failure(id, { code: 'internal', message: 'something went wrong in the app; the details are in its log' });
    }
  }

  /** Validated call of one channel, for in-process hosts and tests. */
  async invoke<C extends ChannelName>(channel: C, args: unknown): Promise<ChannelResult<C>> {
    const schema = channels[channel];
    const parsed = schema.input.safeParse(args ?? {});
    if (!parsed.success) throw new CoreError('invalid-arguments', `invalid arguments for "${channel}": ${describe(parsed.error)}`, issuesOf(parsed.error));
    const handler = this.#handlers[channel] as Handler<C>;
    const result = await handler(parsed.data as ChannelArgs<C>);
    if (this.#options.validateResults) {
      const checked = schema.output.safeParse(result);
      if (!checked.success) throw new Error(`"${channel}" produced a result outside its schema: ${describe(checked.error)}`);
    }
    return result;
  }
}

function failure(id: string | number | null, error: IpcError): ResponseMessage {
  return { type: 'response', id, ok: false, error };
}

function issuesOf(error: z.ZodError): NonNullable<IpcError['issues']> {
  return error.issues.slice(0, 20).map((issue) => ({ path: issue.path.map(String).join('.') || '(root)', message: issue.message }));
}

function describe(error: z.ZodError): string {
  return issuesOf(error)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
}
