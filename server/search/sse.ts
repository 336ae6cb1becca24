import type { ServerResponse } from 'node:http';

/** A server-sent-events answer: one `event:`/`data:` block per call, ending with `data: [DONE]`. */
export class EventStream {
  readonly #res: ServerResponse;
  constructor(res: ServerResponse) {
    this.#res = res;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
    res.flushHeaders();
  }

  send(data: unknown, event?: string): void {
    this.#res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  }

  done(): void {
    this.#res.end('data: [DONE]\n\n');
  }
}
